import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { ICON_NAMES, type IconName } from "~/common/icon-names";
import { ICON_SPRITE_URL } from "~/common/icons";
import type { Route } from "./+types/icons-sprite";
import LayoutDashboard from "lucide-react/icons/layout-dashboard";
import PenLine from "lucide-react/icons/pen-line";
import Bot from "lucide-react/icons/bot";
import Palette from "lucide-react/icons/palette";
import Music from "lucide-react/icons/music";
import Clapperboard from "lucide-react/icons/clapperboard";
import Film from "lucide-react/icons/film";
import ImageIcon from "lucide-react/icons/image";
import Mic from "lucide-react/icons/mic";
import AudioLines from "lucide-react/icons/audio-lines";
import FolderOpen from "lucide-react/icons/folder-open";
import Camera from "lucide-react/icons/camera";
import Sparkles from "lucide-react/icons/sparkles";
import Library from "lucide-react/icons/library";
import Square from "lucide-react/icons/square";
import Menu from "lucide-react/icons/menu";
import X from "lucide-react/icons/x";
import Moon from "lucide-react/icons/moon";
import Sun from "lucide-react/icons/sun";
import LogOut from "lucide-react/icons/log-out";
import ArrowLeft from "lucide-react/icons/arrow-left";
import House from "lucide-react/icons/house";
import Plus from "lucide-react/icons/plus";
import Pencil from "lucide-react/icons/pencil";
import Trash2 from "lucide-react/icons/trash-2";
import Download from "lucide-react/icons/download";
import CloudUpload from "lucide-react/icons/cloud-upload";
import Play from "lucide-react/icons/play";
import Pause from "lucide-react/icons/pause";
import Repeat from "lucide-react/icons/repeat";
import RotateCcw from "lucide-react/icons/rotate-ccw";
import Save from "lucide-react/icons/save";
import Check from "lucide-react/icons/check";
import GripVertical from "lucide-react/icons/grip-vertical";
import ArrowUp from "lucide-react/icons/arrow-up";
import ArrowDown from "lucide-react/icons/arrow-down";
import FlaskConical from "lucide-react/icons/flask-conical";
import Eraser from "lucide-react/icons/eraser";
import Brush from "lucide-react/icons/brush";
import CircleUser from "lucide-react/icons/circle-user";
import WandSparkles from "lucide-react/icons/wand-sparkles";
import Send from "lucide-react/icons/send";
import FileUp from "lucide-react/icons/file-up";
import ChevronRight from "lucide-react/icons/chevron-right";
import SwitchCamera from "lucide-react/icons/switch-camera";
import Paperclip from "lucide-react/icons/paperclip";

const ICONS: Record<IconName, ComponentType> = {
  "layout-dashboard": LayoutDashboard,
  "pen-line": PenLine,
  bot: Bot,
  palette: Palette,
  music: Music,
  clapperboard: Clapperboard,
  film: Film,
  image: ImageIcon,
  mic: Mic,
  "audio-lines": AudioLines,
  "folder-open": FolderOpen,
  camera: Camera,
  sparkles: Sparkles,
  library: Library,
  square: Square,
  menu: Menu,
  x: X,
  moon: Moon,
  sun: Sun,
  "log-out": LogOut,
  "arrow-left": ArrowLeft,
  house: House,
  plus: Plus,
  pencil: Pencil,
  "trash-2": Trash2,
  download: Download,
  "cloud-upload": CloudUpload,
  play: Play,
  pause: Pause,
  repeat: Repeat,
  "rotate-ccw": RotateCcw,
  save: Save,
  check: Check,
  "grip-vertical": GripVertical,
  "arrow-up": ArrowUp,
  "arrow-down": ArrowDown,
  "flask-conical": FlaskConical,
  eraser: Eraser,
  brush: Brush,
  "circle-user": CircleUser,
  "wand-sparkles": WandSparkles,
  send: Send,
  "file-up": FileUp,
  "chevron-right": ChevronRight,
  "switch-camera": SwitchCamera,
  paperclip: Paperclip,
};

/** One <symbol> per icon: lucide's drawing; stroke and size come from the page's CSS (.i). */
function symbol(name: IconName): string {
  const markup = renderToStaticMarkup(createElement(ICONS[name]));
  const inner = markup.replace(/^<svg[^>]*>/, "").replace(/<\/svg>$/, "");
  return `<symbol id="${name}" viewBox="0 0 24 24">${inner}</symbol>`;
}

/**
 * Each icon also drawn once, one under the other, with a <view> on it: `url(/icons.svg?v=…#name-view)`
 * is that icon alone as a CSS image. The dashboard's tool grid and the shell's nav draw their icons
 * this way (a CSS mask keyed by the tool), so their icons cost the page's HTML nothing.
 */
function views(): string {
  const drawn = ICON_NAMES.map((name, index) => `<use href="#${name}" y="${index * 24}" width="24" height="24"/>`).join(
    "",
  );
  const windows = ICON_NAMES.map((name, index) => `<view id="${name}-view" viewBox="0 ${index * 24} 24 24"/>`).join("");
  return `<g fill="none" stroke="#000" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${drawn}</g>${windows}`;
}

let sprite: string | null = null;

/** GET /icons.svg: the sprite, drawn on first use and kept; its URL carries the set's fingerprint. */
export function loader({ request }: Route.LoaderArgs) {
  sprite ??= `<svg xmlns="http://www.w3.org/2000/svg">${ICON_NAMES.map(symbol).join("")}${views()}</svg>`;
  const current = new URL(request.url).search === new URL(ICON_SPRITE_URL, request.url).search;
  return new Response(sprite, {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      // The fingerprinted URL never changes meaning; any other asks again within the hour.
      "Cache-Control": current ? "public, max-age=31536000, immutable" : "public, max-age=3600",
    },
  });
}
