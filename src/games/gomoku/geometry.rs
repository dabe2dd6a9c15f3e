//! The board's geometry both rules read: the four directions a line runs in. Its own file so that
//! the engine (fives) and renju (fouls), which the engine calls, do not import each other.

/// Across, down, and the two diagonals: every line of the board runs in one of them.
pub(super) const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
