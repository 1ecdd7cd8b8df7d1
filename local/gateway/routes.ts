/** The shared route table, matched as API Gateway matches a method and path to a resource. */
import { ROUTES, type RouteDefinition } from "#shared/declarations/routes";

/** A route that matched a request, with its decoded path parameters. */
export interface RouteMatch {
  route: RouteDefinition;
  parameters: Record<string, string>;
}

/** Each route with its path template as a regular expression and its parameter names in order. */
const compiledRoutes = ROUTES.map((route) => {
  const names: string[] = [];
  const pattern = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return { ...route, regex: new RegExp(`^${pattern}$`), names };
});

/** The route for this method and path, or undefined when none matches. */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  for (const route of compiledRoutes) {
    const match = route.regex.exec(path);
    if (route.method === method && match) {
      const parameters = Object.fromEntries(
        route.names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? "")]),
      );
      return { route, parameters };
    }
  }
  return undefined;
}
