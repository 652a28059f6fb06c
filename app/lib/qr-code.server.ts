import QRCode from "qrcode";

/**
 * A QR code of a share link, drawn on the server (docs/decisions/0071-share-dialog-and-shared-links.md):
 * the page needs no script for it, and the browser no QR code library. Dark modules on a white quiet
 * zone in both themes, so a phone's camera reads it.
 */
export async function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
}

/** The same drawing as a data: URL for an <img> (the CSP's img-src allows data:). */
export async function qrDataUrl(text: string): Promise<string> {
  return `data:image/svg+xml;base64,${Buffer.from(await qrSvg(text)).toString("base64")}`;
}
