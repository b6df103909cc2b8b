//! Bounds of the long-running entry points: deep perft, cancellation,
//! chunked playouts, move lists too long to list, thread counts.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use hexcore_core::*;

fn churn(size: usize, pie: bool) -> Churn {
    Churn::new(Arc::new(Board::hexhex(size).unwrap()), pie)
}

#[test]
fn deep_perft_does_not_overflow_the_stack_and_can_be_cancelled() {
    let g = churn(6, false);
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        });
        assert_eq!(
            try_perft(&g, 40_000, Unit::Move, 1, &stop),
            Err(RunError::Cancelled)
        );
    });
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        });
        assert_eq!(
            try_perft(&g, MAX_DEPTH, Unit::Action, 4, &stop),
            Err(RunError::Cancelled)
        );
    });
    // A deep walk that ends: lines of a small board finish long before.
    let small = churn(2, true);
    let stop = AtomicBool::new(false);
    assert_eq!(
        try_perft(&small, 5_000, Unit::Move, 1, &stop),
        Ok(perft(&small, 5_000, Unit::Action, 3))
    );
    assert_eq!(
        try_perft(&small, MAX_DEPTH + 1, Unit::Move, 1, &stop),
        Err(RunError::TooDeep {
            depth: MAX_DEPTH + 1,
            max: MAX_DEPTH
        })
    );
}

#[test]
fn cancelled_before_start() {
    let g = churn(4, true);
    let stop = AtomicBool::new(true);
    for threads in [1, 3] {
        assert_eq!(
            try_perft(&g, 6, Unit::Move, threads, &stop),
            Err(RunError::Cancelled)
        );
        assert_eq!(
            try_divide(&g, 5, Unit::Action, threads, &stop),
            Err(RunError::Cancelled)
        );
        assert_eq!(
            try_playouts(&g, 5, 1, threads, u64::MAX, &stop),
            Err(RunError::Cancelled)
        );
    }
}

#[test]
fn playouts_in_chunks_match_one_batch() {
    let g = Wunchunk::new(6, 2, WunchunkStart::Standard, WunchunkBalance::Ap).unwrap();
    let all = playouts(&g, 40, 11, 1, u64::MAX);
    let stop = AtomicBool::new(false);
    let mut chunked = vec![PlayoutResult::default(); 40];
    for (i, chunk) in chunked.chunks_mut(7).enumerate() {
        playouts_into(&g, 11, (i * 7) as u64, chunk, 3, u64::MAX, &stop).unwrap();
    }
    assert_eq!(all, chunked);
}

#[test]
fn thread_counts() {
    let g = churn(3, true);
    let stop = AtomicBool::new(false);
    assert!(matches!(
        try_perft(&g, 3, Unit::Move, 0, &stop),
        Err(RunError::Invalid(_))
    ));
    assert!(matches!(
        try_perft(&g, 3, Unit::Move, MAX_THREADS + 1, &stop),
        Err(RunError::Invalid(_))
    ));
    // The plain names clamp.
    assert_eq!(perft(&g, 3, Unit::Move, 5000), 4728);
    assert_eq!(
        playouts(&g, 3, 1, 0, u64::MAX),
        playouts(&g, 3, 1, 2, u64::MAX)
    );
}

#[test]
fn huge_move_lists_are_walked_by_actions() {
    // Four players on side 8 with many chunks each: the allotment makes the
    // move list astronomically long.
    let board = Board::hexhex(8).unwrap();
    let mut cells = vec![0i8; board.num_cells()];
    for (cell, c) in cells.iter_mut().enumerate() {
        let (q, r) = board.axial(cell);
        if r.rem_euclid(2) == 0 && q.rem_euclid(3) != 2 {
            *c = 2;
        }
    }
    let g = Wunchunk::from_cells(
        8,
        4,
        WunchunkStart::Standard,
        WunchunkBalance::Ap,
        &cells,
        2,
    )
    .unwrap();
    assert!(g.count_moves() > MOVE_LIST_LIMIT);
    let stop = AtomicBool::new(false);
    assert!(matches!(
        try_divide(&g, 1, Unit::Move, 1, &stop),
        Err(RunError::TooManyMoves { .. })
    ));
    // Depth 1 is a bulk count; depth 2 walks the first turn at action level,
    // cancelled here since it is far too large to finish.
    assert_eq!(try_perft(&g, 1, Unit::Move, 1, &stop), Ok(g.count_moves()));
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        });
        assert_eq!(
            try_perft(&g, 2, Unit::Move, 1, &stop),
            Err(RunError::Cancelled)
        );
    });
}
