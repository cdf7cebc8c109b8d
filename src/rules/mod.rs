//! The rules of Oware Abapa, exactly as `RULES.md` states them: positions, legal moves (feeding
//! included), sowing, capture, the grand-slam rule, game end, notation, hashing and perft.
//! No I/O.

mod game;
mod grand_slam;
pub mod hash;
mod moves;
pub mod notation;
mod outcome;
mod perft;
mod position;
mod side;

pub use game::Game;
pub use grand_slam::{GrandSlam, UnknownGrandSlam};
pub use moves::{Move, MoveSet};
pub use notation::{DiagramError, MoveSyntaxError, format_moves, parse_moves};
pub use outcome::{EndReason, Outcome};
pub use perft::{perft, perft_divide, perft_report};
pub use position::{HALF_SEEDS, IllegalMove, Played, Position, TOTAL_SEEDS};
pub use side::Side;
