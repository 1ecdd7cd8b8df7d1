/**
 * A photo of the document in its pane: the image on a stage the size of the photo as turned and
 * scaled, so the pane's scrollbars reach every part of it at any zoom.
 */
import { h } from "../common/dom.ts";

/** A copy drawn in its pane at a scale and a rotation (degrees clockwise, a multiple of 90). */
export interface Drawing {
  /** Its size at scale 1, turned by `rotation`, in CSS pixels (a PDF: its largest page). */
  size(rotation: number): { width: number; height: number };
  draw(scale: number, rotation: number): void;
}

/** Shows the photo at `url` in `pane`, once it has loaded; `alt` names it. */
export async function showPhoto(pane: HTMLElement, url: string, alt: string): Promise<Drawing> {
  const image = h("img", { src: url, alt });
  const stage = h("div", { class: "viewer-stage" }, image);
  pane.replaceChildren(stage);
  await image.decode();
  const size = (rotation: number) =>
    rotation % 180 === 0
      ? { width: image.naturalWidth, height: image.naturalHeight }
      : { width: image.naturalHeight, height: image.naturalWidth };
  return {
    size,
    draw(scale, rotation) {
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
