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
  target?: "cell" | "piece" | "tile" | "token" | "point";
  cell?: [number, number];                   // target point: the cell whose quarter of the point it fills
  tile?: string; rot?: number; token?: string;
  overlay?: string;                          // the id of the overlay the option acts on
}

// What stands on the board besides tiles and pieces, drawn with the look's glyphs (docs/look.md).
export interface OverlayView {
  id: string; at: "cell" | "point" | "track"; x: number; y: number; label: string;
  glyph?: string; seat?: number; done?: boolean;
  parts: { glyph: string; dx: number; dy: number; rot?: number; seat?: number; label?: string }[];
  targets: string[];
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
    tiles: { id: string; x: number; y: number; rot: number; player: number; last?: boolean; covered?: number[] }[];
    pieces: { player: number; piece: string; x: number; y: number; port: string; feature: string; feature_id: number; anchor: [number, number] }[];
    features: { id: number; type: string; cells: [number, number][]; completed: boolean; points: number; tiles: number; pieces: number[]; owners: number[] }[];
    overlays: OverlayView[];
    track?: { length: number; title: string; name: string; word?: string };
  };
  players: { seat: number; name: string; bot: string | null; score: number; supply: { name: string; count: number; word?: string }[]; hand: { name: string; count: number; word?: string }[]; track?: number }[];
  pile: { left: number; bonus_left: number; tiles: { name: string; count: number }[] };
  decision: { phase: string; player: number | null; tile: string | null; options: OptionView[]; panels: Panel[] };
  last_turn: EventView[];
  panels: Panel[];
  summary?: string[];
  over: boolean;
  final_scores?: number[];
  winners?: number[];
}

// words: a turn's moves in the connection's language, one per move of data.moves (docs/server-protocol.md)
export interface GameEvent { seq: number; type: string; seat: number; time: number; data: any; cid?: string; words?: string[] }

export interface TileInfo {
  id: string; file: string; count: number; pile: string; kind: string; east?: string | null;
  features: { feature: number; type: string; ports: string[]; anchors: [number, number][] }[];
  svg: string;
}
// A game's look as the tile index gives it: glyphs (SVG drawn round the origin for a tile 64 units
// square; seat: drawn in a seat's colour), which glyph draws each piece, what players hold.
export interface Glyph { svg: string; size: number; title?: string; seat?: boolean }
export interface Look { glyphs: Record<string, Glyph>; pieces: Record<string, string>; symbols: Record<string, string[]>; hand?: string; features: Record<string, { fill: string; edge: string }> }
export interface FeatureType { name: string; class: string; claimable: boolean; symbols: string[]; piece: string; network_piece: string | null }
export interface TileIndex { game: string; title: string; px: number; piece_names: string[]; feature_types: FeatureType[]; tiles: TileInfo[]; look: Look }

export interface Catalog {
  games: { id: string; title: string; min_players: number; max_players: number; options: { name: string; values: string[]; help: string; word?: string; value_words?: string[] }[] }[];
  bots: { level: string; spec: string; word?: string }[];
  seat_colours: string[];
}

export interface SeatInfo { seat: number; name: string; bot: string }

// GET /api/rules/GAME: the game's rules page, in the page's language (docs/web.md).
export interface RulesPage { game: string; title: string; lang: string; sections: { id: string; title: string; text: string[]; tiles: string[] }[] }
