// The shapes the client reads: the engine's position view (docs/view.schema.json), the server's
// messages (docs/server-protocol.schema.json) and the tile index (docs/view.md, "Tile pictures").

export interface Worth { completed: boolean; tiles: number; points: number; pieces: number[]; owners: number[] }

export interface OptionView {
  kind: "place" | "piece" | "pass" | "action" | "choice";
  notation?: string;
  notations?: string[];
  rots?: number[];
  text: string;
  x?: number; y?: number;
  port?: string; piece?: string; feature?: string;
  worth?: Worth;
  anchor?: [number, number];
  target?: "cell" | "piece" | "tile" | "token";
  tile?: string; rot?: number; token?: string;
}

export interface Panel {
  id: string; title: string;
  counters: { name: string; value: string }[];
  columns: string[]; rows: string[][]; lines: string[]; track: number;
}

export interface EventView { turn: number; player: number; points: number; reason: string; text: string; feature?: string }

export interface View {
  game: string; title: string; turn: number;
  board: {
    tiles: { id: string; x: number; y: number; rot: number; player: number }[];
    pieces: { player: number; piece: string; x: number; y: number; port: string; feature: string; feature_id: number; anchor: [number, number] }[];
    features: { id: number; type: string; cells: [number, number][]; completed: boolean; points: number; tiles: number; pieces: number[]; owners: number[] }[];
    markers: { kind: string; index: number; x: number; y: number }[];
    sites: { kind: string; x: number; y: number; completed: boolean; quarters: { corner: string; tile: [number, number]; token: string | null; player: number | null }[] }[];
  };
  players: { seat: number; name: string; bot: string | null; score: number; supply: { name: string; count: number }[]; hand: { name: string; count: number }[]; track?: number }[];
  pile: { left: number; bonus_left: number; tiles: { name: string; count: number }[] };
  decision: { phase: string; player: number | null; tile: string | null; options: OptionView[]; panels: Panel[] };
  last_turn: EventView[];
  panels: Panel[];
  over: boolean;
  final_scores?: number[];
  winners?: number[];
}

export interface GameEvent { seq: number; type: string; seat: number; time: number; data: any; cid?: string }

export interface TileInfo {
  id: string; file: string; count: number; pile: string; kind: string; east?: string | null;
  features: { feature: number; type: string; ports: string[]; anchors: [number, number][] }[];
  svg: string;
}
export interface TileIndex { game: string; title: string; px: number; piece_names: string[]; tiles: TileInfo[] }

export interface Catalog {
  games: { id: string; title: string; min_players: number; max_players: number; options: { name: string; values: string[]; help: string }[] }[];
  bots: { level: string; spec: string }[];
  seat_colours: string[];
}

export interface SeatInfo { seat: number; name: string; bot: string }
