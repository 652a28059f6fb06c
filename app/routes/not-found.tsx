import { data, Link } from "react-router";
import type { Route } from "./+types/not-found";

export const meta: Route.MetaFunction = () => [{ title: "Page not found · Creative AI Studio" }];

export function loader() {
  return data(null, { status: 404 });
}

export function action() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return (
    <main className="page page-narrow error-page">
      <h1>404</h1>
      <p>This page does not exist.</p>
      <Link className="button button-primary" to="/">
        Return Home
      </Link>
    </main>
  );
}
