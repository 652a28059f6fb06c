/** SPEC §9's sketch styles, realistic first (shared by the drawing pad and the server). */
export const SKETCH_STYLES = ["realistic", "cartoon", "futuristic", "painting", "concept"] as const;
export type SketchStyle = (typeof SKETCH_STYLES)[number];
export const DEFAULT_SKETCH_STYLE: SketchStyle = "realistic";
