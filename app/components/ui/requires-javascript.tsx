/**
 * For screens that only work in the browser (camera, microphone): without JavaScript the page says
 * so plainly instead of showing controls that cannot work. With JavaScript the screen renders its
 * controls once hydrated, and this message is never shown.
 */
export function RequiresJavaScript({ feature }: { feature: string }) {
  return (
    <noscript>
      <p className="message message-error requires-javascript">
        {feature} runs in your browser and needs JavaScript. Turn JavaScript on and reload this page to use it.
      </p>
    </noscript>
  );
}
