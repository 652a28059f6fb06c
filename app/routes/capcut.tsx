import { Link } from "react-router";
import { Icon } from "~/components/icon";
import type { Route } from "./+types/capcut";

export const meta: Route.MetaFunction = () => [{ title: "AI x AI · Creative AI Studio" }];

/** docs/screens.md#screens-and-routes: the AI x AI promo page, with a way back to the dashboard. */
export default function AiXAi() {
  return (
    <main className="page page-narrow promo">
      <h1>
        <Icon name="sparkles" /> AI x AI
      </h1>
      <p className="promo-lead">Your ideas, amplified twice: one AI writes, another brings it to life.</p>
      <ul className="promo-points">
        <li>
          <Icon name="bot" /> Draft a script with the AI Assistant, then hear it spoken back.
        </li>
        <li>
          <Icon name="palette" /> Sketch a scene on the Drawing Pad and turn it into an image in your style.
        </li>
        <li>
          <Icon name="clapperboard" /> Describe a shot and follow the AI Video generator as it renders.
        </li>
        <li>
          <Icon name="folder-open" /> Bundle voices, music, video and images into a Project.
        </li>
      </ul>
      <Link className="button button-primary" to="/dashboard">
        <Icon name="arrow-left" />
        Back to Dashboard
      </Link>
    </main>
  );
}
