/** An API's route table, matched as API Gateway matches a method and path to a resource. */
import { methodsByPath, type RouteDefinition } from "#shared/declarations/routes";

/** A route that matched a request, with its decoded path parameters. */
export interface RouteMatch {
  route: RouteDefinition;
  parameters: Record<string, string>;
}

/** A route table, matched by `matchRoute`. */
export type RouteTable = ReturnType<typeof compileRoutes>;

/** Each route with its path template as a regular expression and its parameter names in order. */
export function compileRoutes(routes: readonly RouteDefinition[]) {
  const methods = methodsByPath(routes);
  return routes.map((route) => {
    const names: string[] = [];
    const pattern = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    return { route, regex: new RegExp(`^${pattern}$`), names, allow: methods.get(route.path) ?? [] };
  });
}

/** A trailing slash names the same resource. */
const resourcePath = (requestPath: string) => (requestPath.length > 1 ? requestPath.replace(/\/$/, "") : requestPath);

/** The methods a known path takes (for `Allow`), or none when no route has this path. */
export function allowedMethods(table: RouteTable, requestPath: string): string[] {
  const path = resourcePath(requestPath);
  // As API Gateway matches, a literal segment before a parameter.
  const [best] = table.filter(({ regex }) => regex.test(path)).sort((a, b) => a.names.length - b.names.length);
  return best?.allow ?? [];
}

/** The route for this method and path, or undefined when none matches. */
export function matchRoute(table: RouteTable, method: string, requestPath: string): RouteMatch | undefined {
  const path = resourcePath(requestPath);
  for (const { route, regex, names } of table) {
    const match = regex.exec(path);
    if (route.method === method && match) {
      const parameters = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? "")]));
      return { route, parameters };
    }
  }
  return undefined;
}
