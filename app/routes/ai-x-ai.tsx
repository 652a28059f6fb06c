import { Link } from "react-router";
import { Icon } from "~/components/ui/icon";
import type { Route } from "./+types/ai-x-ai";

export const meta: Route.MetaFunction = () => [{ title: "AI x AI · Creative AI Studio" }];

/** docs/screens.md#screens-and-routes: the AI x AI promo page, with a way back to the dashboard; each tool it names is a link to it. */
export default function AiXAi() {
  return (
    <main className="page page-narrow promo">
      <h1>
        <Icon name="sparkles" /> AI x AI
      </h1>
      <p className="promo-lead">Your ideas, amplified twice: one AI writes, another brings it to life.</p>
      <ul className="promo-points">
        <li>
          <Icon name="bot" /> Draft a script with the <Link to="/assistant">AI Assistant</Link>, then hear it spoken
          back.
        </li>
        <li>
          <Icon name="palette" /> Sketch a scene on the <Link to="/drawing">Drawing Pad</Link> and turn it into an image
          in your style.
        </li>
        <li>
          <Icon name="clapperboard" /> Describe a shot and follow the <Link to="/aivideo">AI Video</Link> generator as
          it renders.
        </li>
        <li>
          <Icon name="folder-open" /> Bundle <Link to="/voices">voices</Link>, <Link to="/music">music</Link>,{" "}
          <Link to="/videos">video</Link> and <Link to="/image">images</Link> into a <Link to="/projects">Project</Link>
          .
        </li>
      </ul>
      <Link className="button button-primary" to="/dashboard">
        <Icon name="arrow-left" />
        Back to Dashboard
      </Link>
    </main>
  );
}
