/** An API's route table, matched as API Gateway matches a method and path to a resource. */
import type { RouteDefinition } from "#shared/declarations/routes";

/** A route that matched a request, with its decoded path parameters. */
export interface RouteMatch {
  route: RouteDefinition;
  parameters: Record<string, string>;
}

/** A route table, matched by `matchRoute`. */
export type RouteTable = ReturnType<typeof compileRoutes>;

/** Each route with its path template as a regular expression and its parameter names in order. */
export function compileRoutes(routes: readonly RouteDefinition[]) {
  return routes.map((route) => {
    const names: string[] = [];
    const pattern = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    return { route, regex: new RegExp(`^${pattern}$`), names };
  });
}

/** The route for this method and path, or undefined when none matches; a trailing slash names the same resource. */
export function matchRoute(table: RouteTable, method: string, requestPath: string): RouteMatch | undefined {
  const path = requestPath.length > 1 ? requestPath.replace(/\/$/, "") : requestPath;
  for (const { route, regex, names } of table) {
    const match = regex.exec(path);
    if (route.method === method && match) {
      const parameters = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? "")]));
      return { route, parameters };
    }
  }
  return undefined;
}
