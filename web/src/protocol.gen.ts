// Generated from src/protocol/server_messages.h by rainet_protocol_ts: do not edit.
// Regenerate with scripts/gen-protocol-ts.sh; a test fails while this file differs.
// The server -> client messages of docs/protocol.md sections 5 and 6, and the HTTP
// JSON answers of section 10 (src/protocol/http_answers.h).

export type PlayerKind = 'guest' | 'account';
export type SideId = '1' | '2';
export type GameStatus = 'open' | 'setup' | 'playing' | 'finished' | 'aborted';
export type ErrorCode = 'bad_json' | 'bad_message' | 'unknown_type' | 'too_large' | 'rate_limited' | 'not_authenticated' | 'unknown_game' | 'not_a_player' | 'wrong_status' | 'not_your_turn' | 'illegal_action' | 'stale_version' | 'bad_setup' | 'already_set_up' | 'no_draw_offer' | 'cannot_claim' | 'cannot_abort' | 'no_rematch_offer' | 'bad_credentials' | 'username_taken' | 'already_registered' | 'unknown_player' | 'unknown_challenge' | 'challenge_refused' | 'busy' | 'unknown_tournament' | 'already_joined' | 'not_joined' | 'tournament_over' | 'tournament_full' | 'withdrawn' | 'berserk_refused' | 'too_many_tournaments' | 'banned' | 'muted' | 'chat_refused' | 'forbidden' | 'internal';
export type Role = '1' | '2' | 'spectator';
export type Preset = 'standard' | 'official';
export type Opponent = 'open' | 'invite' | 'computer' | 'match';
export type Revealed = 'link' | 'virus';
export type GameResult = '1-0' | '0-1' | '1/2-1/2';
export type EndReason = 'four_links' | 'four_viruses' | 'no_progress' | 'resign' | 'agreement' | 'time' | 'abandoned' | 'aborted';
export type ChatChannel = 'players' | 'spectators';
export type SideWish = '1' | '2' | 'random';
export type NotificationKind = 'challenge' | 'challenge_accepted' | 'challenge_declined' | 'your_turn' | 'game_ended' | 'followed' | 'follow_started_game' | 'tournament_starting' | 'tournament_ended';
export type ChallengeStatus = 'pending' | 'accepted' | 'declined' | 'canceled' | 'expired';
export type ServiceState = 'up' | 'down';

export interface Player {
  id: string;
  name: string;
  /** welcome and ack: guest or account */
  kind?: PlayerKind;
  /** Glicko-2 rating, rounded; null for the computer */
  rating?: number | null;
  /** snapshot: has a connection following the game now */
  connected?: boolean;
  /** the computer or a bot account */
  bot?: boolean;
  /** snapshot: cs since the seat lost its last connection */
  away?: number;
}

export interface PlayerGame {
  game: string;
  side: SideId;
  status: GameStatus;
}

export interface ClockSetting {
  initial: number;
  increment: number;
  /** correspondence: days per move (initial is them in cs) */
  days?: number;
}

export interface Clocks {
  '1': number;
  '2': number;
  /** the side whose clock runs */
  running: SideId | null;
  /** correspondence: when the running side's time runs out (unix ms) */
  deadline?: number;
}

export interface Seats {
  '1': Player | null;
  '2': Player | null;
}

export interface SetupDone {
  '1': boolean;
  '2': boolean;
}

export interface HistoryEntry {
  ply: number;
  side: SideId;
  /** NF in the public form for non-owners */
  action: string;
  /** the identity the action revealed */
  revealed?: Revealed;
}

export interface SideSetups {
  '1': string[];
  '2': string[];
}

export interface RatingChange {
  before: number;
  after: number;
}

export interface SideRatings {
  '1': RatingChange;
  '2': RatingChange;
}

export interface Result {
  /** null when aborted */
  result: GameResult | null;
  winner: SideId | null;
  reason: EndReason;
  /** the full position, once play had started */
  position?: string;
  /** the link squares each side submitted ([] if none) */
  setups: SideSetups;
  /** rated games with a result: each side's rating before and after */
  ratings?: SideRatings;
}

export interface RematchState {
  offer: SideId | null;
  next_game: string | null;
}

export interface ChatLine {
  channel: ChatChannel;
  /** the line's number in the game (both rooms), from 1; resume asks for those after it */
  n: number;
  from: Player;
  /** the speaker's seat; null for a spectator */
  side: SideId | null;
  text: string;
  /** Unix time in ms */
  at: number;
}

export interface TournamentRef {
  id: string;
  name: string;
}

export interface LobbyEntry {
  game: string;
  preset: Preset;
  clock: ClockSetting | null;
  creator: Player;
  /** the creator's wish */
  side: SideWish;
  rated: boolean;
}

export interface SeekEntry {
  preset: Preset;
  clock: ClockSetting | null;
  rated: boolean;
  /** how many wait for this kind of game */
  players: number;
}

export interface TournamentInfo {
  id: string;
  name: string;
  format: string;
  /** created, running or finished */
  status: string;
  preset: Preset;
  clock: ClockSetting;
  rated: boolean;
  /** bot accounts may join */
  bots: boolean;
  /** unix ms */
  startsAt: number;
  /** unix ms */
  endsAt: number;
  players: number;
}

export interface StandingEntry {
  rank: number;
  player: Player;
  points: number;
  /** performance rating (the tie-break) */
  performance: number;
  games: number;
  /** two wins in a row: results count double */
  fire: boolean;
  berserks: number;
  /** active, paused or withdrawn */
  state: string;
  /** each counted game's points, in order */
  sheet: number[];
  /** the game in play, if any */
  game: string | null;
}

export interface Notification {
  /** increasing: a newer notification has a higher id */
  id: number;
  kind: NotificationKind;
  /** when it was made, ms */
  at: number;
  read: boolean;
  /** the fields of its kind (docs/protocol.md) */
  data: Record<string, unknown>;
}

export interface Challenge {
  id: string;
  from: Player;
  to: Player;
  preset: Preset;
  clock: ClockSetting | null;
  rated: boolean;
  /** the challenger's wish */
  side: SideWish;
  /** when it lapses unanswered, ms */
  expires: number;
}

export interface FollowedEntry {
  player: Player;
  /** has a connection to this server now */
  online: boolean;
  /** its games in play, newest first (at most 10) */
  games: string[];
}

export interface CorrespondenceGame {
  game: string;
  preset: Preset;
  /** days per move */
  days: number;
  /** the player's side */
  side: SideId;
  opponent: Player;
  /** the player is to move */
  yourTurn: boolean;
  /** when the side to move's time runs out (unix ms) */
  deadline: number;
}

export interface Report {
  id: number;
  reporter: Player;
  target: Player;
  /** the game it is about, if any */
  game?: string;
  /** one of the reasons of `report` */
  reason: string;
  /** the reporter's words (may be empty) */
  text: string;
  /** when it was made, unix ms */
  at: number;
}

export interface ArchivePlayer {
  id: string;
  name: string;
  /** a bot account */
  bot?: boolean;
}

export interface ArchivePlayers {
  '1': ArchivePlayer | null;
  '2': ArchivePlayer | null;
}

export interface GameListEntry {
  game: string;
  status: GameStatus;
  preset: string;
  players: ArchivePlayers;
  result: string | null;
  reason: string | null;
  rated: boolean;
  /** ISO 8601, UTC */
  created: string;
}

export interface LeaderboardEntry {
  rank: number;
  id: string;
  name: string;
  /** guest or account */
  kind: string;
  rating: number;
  rd: number;
  rated_games: number;
  /** a bot account */
  bot?: boolean;
}

export interface AnalysedAction {
  /** full notation */
  action: string;
  /** of the search's visits */
  share: number;
  /** the win chance after it */
  win: number;
}

export interface AnalysedPly {
  /** actions played before this position */
  ply: number;
  to_move: SideId;
  /** the analysed side's win chance */
  win: number;
  /** the game ended here */
  over?: boolean;
  /** square: chance that the unidentified opponent card is a virus */
  virus: Record<string, number>;
  /** the analysed side's turns only */
  best: AnalysedAction[];
}

export interface WelcomeMessage {
  type: 'welcome';
  token: string;
  player: Player;
  /** the player's games that are not finished */
  games: PlayerGame[];
  /** the login's id, when it answers one */
  id?: string | number;
  /** unread notifications; absent for a new guest, who has none */
  unread?: number;
}

export interface AckMessage {
  type: 'ack';
  id: string | number;
  game?: string;
  /** the version the request led to, when it made one */
  v?: number;
  /** register and rename */
  player?: Player;
  /** the tournament created, joined or left */
  tournament?: string;
}

export interface ErrorMessage {
  type: 'error';
  code: ErrorCode;
  message: string;
  id?: string | number;
  game?: string;
}

export interface SnapshotMessage {
  type: 'snapshot';
  game: string;
  v: number;
  you: Role;
  status: GameStatus;
  preset: Preset;
  opponent: Opponent;
  /** against the computer only */
  level: number | null;
  rated: boolean;
  clock: ClockSetting | null;
  clocks: Clocks | null;
  players: Seats;
  setup: SetupDone;
  /** to a side that has set up: its own link squares */
  links?: string[];
  /** null until play starts */
  view: string | null;
  history: HistoryEntry[];
  /** to the side to move while playing */
  legal?: string[];
  draw_offer: SideId | null;
  /** to a seated side: whether it may abort now (core's canAbort) */
  abortable?: boolean;
  /** cs without a connection before claim_win is possible */
  grace: number;
  spectators: number;
  result: Result | null;
  /** once the game is over */
  rematch?: RematchState;
  /** the recipient's chat room, when it has lines: the last 50 */
  chat?: ChatLine[];
  /** a tournament's game: its tournament */
  tournament?: TournamentRef;
  /** a tournament's game: the sides that berserked */
  berserk?: SideId[];
}

export interface HiddenEvent {
  type: 'event';
  game: string;
  v: number;
  kind?: undefined;
}

export interface JoinedEvent {
  type: 'event';
  game: string;
  v: number;
  kind: 'joined';
  side: SideId;
  player: Player;
}

export interface SetupEvent {
  type: 'event';
  game: string;
  v: number;
  kind: 'setup';
  side: SideId;
  /** only to that side */
  links?: string[];
}

export interface StartEvent {
  type: 'event';
  game: string;
  v: number;
  kind: 'start';
  view: string;
  legal?: string[];
  clocks: Clocks | null;
}

export interface ActionEvent {
  type: 'event';
  game: string;
  v: number;
  kind: 'action';
  ply: number;
  side: SideId;
  action: string;
  revealed?: Revealed;
  view: string;
  legal?: string[];
  /** to the sides: false on the action after which they may no longer abort */
  abortable?: boolean;
  clocks: Clocks | null;
  /** always null: an action ends a pending offer */
  draw_offer: SideId | null;
}

export interface DrawOfferEvent {
  type: 'event';
  game: string;
  v: number;
  kind: 'draw_offer';
  side: SideId;
}

export interface DrawDeclineEvent {
  type: 'event';
  game: string;
  v: number;
  kind: 'draw_decline';
  side: SideId;
}

export interface EndEvent {
  type: 'event';
  game: string;
  v: number;
  kind: 'end';
  /** null when aborted */
  result: GameResult | null;
  winner: SideId | null;
  reason: EndReason;
  /** the full position, once play had started */
  position?: string;
  /** the link squares each side submitted ([] if none) */
  setups: SideSetups;
  /** rated games with a result: each side's rating before and after */
  ratings?: SideRatings;
  clocks: Clocks | null;
}

export interface RematchOfferEvent {
  type: 'event';
  game: string;
  v: number;
  kind: 'rematch_offer';
  side: SideId;
}

export interface RematchDeclineEvent {
  type: 'event';
  game: string;
  v: number;
  kind: 'rematch_decline';
  side: SideId;
}

export interface RematchEvent {
  type: 'event';
  game: string;
  v: number;
  kind: 'rematch';
  next_game: string;
}

export interface PresenceMessage {
  type: 'presence';
  game: string;
  side: SideId;
  connected: boolean;
}

export interface LobbyMessage {
  type: 'lobby';
  games: LobbyEntry[];
  seeks: SeekEntry[];
}

export interface ChatMessage {
  type: 'chat';
  game: string;
  channel: ChatChannel;
  /** the line's number in the game (both rooms), from 1; resume asks for those after it */
  n: number;
  from: Player;
  /** the speaker's seat; null for a spectator */
  side: SideId | null;
  text: string;
  /** Unix time in ms */
  at: number;
}

export interface SpectatorsMessage {
  type: 'spectators';
  game: string;
  count: number;
}

export interface MatchedMessage {
  type: 'matched';
  game: string;
  side: SideId;
}

export interface PongMessage {
  type: 'pong';
  /** the ping's; null when it had none */
  id: string | number | null;
}

export interface TournamentMessage {
  type: 'tournament';
  tournament: TournamentInfo;
  /** the server's unix ms, for the countdown */
  now: number;
  /** best first */
  standings: StandingEntry[];
}

export interface TournamentsMessage {
  type: 'tournaments';
  /** created and running first, then finished */
  tournaments: TournamentInfo[];
  /** the request's id */
  id?: string | number;
}

export interface NotificationMessage {
  type: 'notification';
  n: Notification;
  /** the recipient's unread notifications, this one included */
  unread: number;
}

export interface NotificationsMessage {
  type: 'notifications';
  /** newest first */
  items: Notification[];
  unread: number;
  /** the request's */
  id?: string | number;
}

export interface UnreadMessage {
  type: 'unread';
  unread: number;
}

export interface ChallengeMessage {
  type: 'challenge';
  challenge: Challenge;
  /** the challenger's request's */
  id?: string | number;
}

export interface ChallengeUpdateMessage {
  type: 'challenge_update';
  challenge: string;
  status: ChallengeStatus;
  /** a decline's reason */
  reason?: string;
  /** the game an acceptance made */
  game?: string;
}

export interface ChallengesMessage {
  type: 'challenges';
  received: Challenge[];
  sent: Challenge[];
  id?: string | number;
}

export interface FollowingMessage {
  type: 'following';
  /** by name */
  players: FollowedEntry[];
  id?: string | number;
}

export interface BerserkMessage {
  type: 'berserk';
  game: string;
  /** the side that berserked */
  side: SideId;
  /** the clocks now */
  clocks: Clocks;
}

export interface MyGamesMessage {
  type: 'my_games';
  /** at most 100 */
  games: CorrespondenceGame[];
  id?: string | number;
}

export interface BlockedMessage {
  type: 'blocked';
  /** by name */
  players: Player[];
  id?: string | number;
}

export interface ReportsMessage {
  type: 'reports';
  /** oldest first, at most 100 */
  reports: Report[];
  id?: string | number;
}

/** Every event, discriminated on `kind` (absent: the event shows nothing to this role). */
export type GameEvent =
  | HiddenEvent
  | JoinedEvent
  | SetupEvent
  | StartEvent
  | ActionEvent
  | DrawOfferEvent
  | DrawDeclineEvent
  | EndEvent
  | RematchOfferEvent
  | RematchDeclineEvent
  | RematchEvent;

/** Every server message, discriminated on `type`. */
export type ServerMessage =
  | WelcomeMessage
  | AckMessage
  | ErrorMessage
  | SnapshotMessage
  | PresenceMessage
  | LobbyMessage
  | ChatMessage
  | SpectatorsMessage
  | MatchedMessage
  | PongMessage
  | TournamentMessage
  | TournamentsMessage
  | NotificationMessage
  | NotificationsMessage
  | UnreadMessage
  | ChallengeMessage
  | ChallengeUpdateMessage
  | ChallengesMessage
  | FollowingMessage
  | BerserkMessage
  | MyGamesMessage
  | BlockedMessage
  | ReportsMessage
  | GameEvent;

// The HTTP JSON answers of docs/protocol.md section 10.

export interface GameRecordAnswer {
  game: string;
  status: GameStatus;
  preset: string;
  /** null: untimed */
  clock: ClockSetting | null;
  players: ArchivePlayers;
  /** ISO 8601, UTC */
  created: string;
  /** null until the game has one */
  result: string | null;
  /** how it ended; null until it did */
  reason: string | null;
  rated: boolean;
  /** once over: the link squares each side set up */
  setups?: SideSetups;
  /** full notation once over, public before */
  actions: string[];
  /** the last position; null before play */
  position: string | null;
  /** the position after every ply, the start first */
  positions: string[];
  /** docs/record-format.md; null before play */
  record: string | null;
}

export interface GameListPage {
  games: GameListEntry[];
  per_page: number;
  /** pass as `after` for the next page; null on the last */
  next: string | null;
}

export interface PlayerProfile {
  id: string;
  name: string;
  /** guest or account */
  kind: string;
  /** Glicko-2, rounded */
  rating: number;
  /** rating deviation, rounded */
  rd: number;
  rated_games: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** a bot account */
  bot?: boolean;
}

export interface LeaderboardPage {
  players: LeaderboardEntry[];
  per_page: number;
  /** players with a rated game */
  total: number;
  /** pass as `after` for the next page; null on the last */
  next: string | null;
}

export interface GameAnalysis {
  game: string;
  side: SideId;
  /** search iterations per ply */
  nodes: number;
  plies: AnalysedPly[];
}

export interface ClusterHealth {
  node: string;
  role: 'cluster';
  redis: ServiceState;
  database: ServiceState;
  /** games this node holds */
  leases: number;
}

export interface StoreTestState {
  reads_delayed: number;
}
