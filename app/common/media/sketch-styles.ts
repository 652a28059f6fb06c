/** the sketch styles in docs/screens.md#constants-and-limits, realistic first (shared by the drawing pad and the server). */
export const SKETCH_STYLES = ["realistic", "cartoon", "futuristic", "painting", "concept"] as const;
export type SketchStyle = (typeof SKETCH_STYLES)[number];
export const DEFAULT_SKETCH_STYLE: SketchStyle = "realistic";
/** The drawing pad's paper: its sketches are opaque, so a saved PNG looks like the pad. */
export const SKETCH_PAPER = "#10141c";
/**
 * How far (per channel, 0-255) a pixel may be from the paper and still be paper: rubbing out with the
 * paper colour leaves blending's rounding (a channel off by one or two) where strokes overlapped.
 */
export const BLANK_TOLERANCE = 8;
