/**
 * A photo of the document in its pane: the image on a stage the size of the photo as turned and
 * scaled, so the pane's scrollbars reach every part of it at any zoom; a loupe under the pointer
 * shows the part it is over three times larger.
 */
import { h } from "../common/dom.ts";

/** A copy drawn in its pane at a scale and a rotation (degrees clockwise, a multiple of 90). */
export interface Drawing {
  /** Its size at scale 1, turned by `rotation`, in CSS pixels (a PDF: its largest page). */
  size(rotation: number): { width: number; height: number };
  draw(scale: number, rotation: number): void;
}

/** How much larger the loupe shows the photo than it is drawn. */
const LOUPE_ZOOM = 3;

/**
 * A loupe over `stage`: while the pointer is on it, a circle centred on the pointer showing the
 * photo under it `LOUPE_ZOOM` times larger, turned as the photo is (a copy of the image inside).
 */
function loupeOver(stage: HTMLElement, image: HTMLImageElement, drawn: () => { scale: number; rotation: number }) {
  const lens = h("img", { src: image.src, alt: "" });
  const loupe = h("div", { class: "viewer-loupe", "aria-hidden": "true", hidden: true }, lens);
  stage.append(loupe);
  stage.addEventListener("pointermove", (event) => {
    const { scale, rotation } = drawn();
    const bounds = stage.getBoundingClientRect();
    const x = event.clientX - bounds.left;
    const y = event.clientY - bounds.top;
    // The point under the pointer, from the stage's centre, brought to the loupe's centre magnified.
    const dx = (x - bounds.width / 2) * LOUPE_ZOOM;
    const dy = (y - bounds.height / 2) * LOUPE_ZOOM;
    Object.assign(loupe.style, { left: `${x}px`, top: `${y}px` });
    Object.assign(lens.style, {
      width: `${image.naturalWidth * scale * LOUPE_ZOOM}px`,
      height: `${image.naturalHeight * scale * LOUPE_ZOOM}px`,
      transform: `translate(-50%, -50%) translate(${-dx}px, ${-dy}px) rotate(${rotation}deg)`,
    });
    loupe.hidden = false;
  });
  stage.addEventListener("pointerleave", () => {
    loupe.hidden = true;
  });
}

/** Shows the photo at `url` in `pane`, once it has loaded; `alt` names it. */
export async function showPhoto(pane: HTMLElement, url: string, alt: string): Promise<Drawing> {
  const image = h("img", { src: url, alt });
  const stage = h("div", { class: "viewer-stage" }, image);
  pane.replaceChildren(stage);
  await image.decode();
  let drawn = { scale: 1, rotation: 0 };
  loupeOver(stage, image, () => drawn);
  const size = (rotation: number) =>
    rotation % 180 === 0
      ? { width: image.naturalWidth, height: image.naturalHeight }
      : { width: image.naturalHeight, height: image.naturalWidth };
  return {
    size,
    draw(scale, rotation) {
      drawn = { scale, rotation };
      const turned = size(rotation);
      Object.assign(stage.style, { width: `${turned.width * scale}px`, height: `${turned.height * scale}px` });
      // Centred on the stage, then turned about its centre.
      Object.assign(image.style, {
        width: `${image.naturalWidth * scale}px`,
        height: `${image.naturalHeight * scale}px`,
        transform: `translate(-50%, -50%) rotate(${rotation}deg)`,
      });
    },
  };
}
