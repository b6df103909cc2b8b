"""One draw rule everywhere: a drawn game's ``winners`` lists every seat
("all players = draw", README), and summaries, rewards, match reports and
OpenSpiel returns all read it that way."""
from __future__ import annotations

import numpy as np
import pytest

import hexcore as hc
from hexcore._core import _rewards
from hexcore.match import _outcome
from hexcore.reference import quintun as ref_quintun
from hexcore.vector import VecGame


def quintun_one_move_from_a_draw(reference: bool = False):
    """Side 4, the Ring all neutral A, the Interior full but for one cell:
    Black's only move fills it and nobody can qualify (one colour)."""
    b = hc.Quintun(size=4).board
    pos = {}
    interior = [i for i in range(b.num_cells) if not b.is_ring(i)]
    for i in range(b.num_cells):
        if b.is_ring(i):
            pos[b.label(i)] = "A"
    for k, i in enumerate(interior[:-1]):
        pos[b.label(i)] = 1 + k % 2
    if reference:
        return ref_quintun.Quintun.from_position(pos, to_move=1, size=4), b.label(interior[-1])
    return hc.Quintun.from_position(pos, to_move=1, size=4), b.label(interior[-1])


def test_quintun_draw_lists_every_seat():
    g, last = quintun_one_move_from_a_draw()
    assert g.legal_moves() == [last]
    g.play(last)
    assert g.is_over and g.winners == (1, 2)  # was ()
    r, last = quintun_one_move_from_a_draw(reference=True)
    r.play(last)
    assert r.is_over and r.winners == (1, 2)  # the reference agrees
    assert _rewards(g.winners, g.num_players) == [0.0, 0.0]
    assert _outcome(g.winners, 1) == _outcome(g.winners, 2) == "draw"
    p = hc.random_playouts(quintun_one_move_from_a_draw()[0], 5, seed=0)
    assert p.winner_mask.tolist() == [3] * 5 and p.finished.all()
    s = p.summary()
    assert (s.draws, s.shared, s.wins, s.shares) == (5, 0, (0, 0), (5, 5))


def test_quintun_draw_in_a_batch_rewards_zero():
    g, last = quintun_one_move_from_a_draw()
    v = VecGame([g], observation_dtype=None)
    r = v.step(np.array([g.legal_actions()[0]]))
    assert r.terminated.tolist() == [True] and r.rewards.tolist() == [[0.0, 0.0]]


def test_openspiel_returns_of_a_draw():
    pytest.importorskip("pyspiel")
    from hexcore import openspiel as hos

    g, last = quintun_one_move_from_a_draw()
    state = hos.load_game(g.spec).state_from_hexcore(g)
    state.apply_action(int(g.legal_actions()[0]))
    assert state.is_terminal() and state.hexcore_game.winners == (1, 2)
    assert list(state.returns()) == [0.0, 0.0]


def test_summary_counts_all_seats_as_a_draw_and_some_as_shared():
    # three players: a sole win, a win shared by two, a draw (all three), and one unfinished game
    mask = np.array([1, 3, 7, 0], dtype=np.uint8)
    s = hc.PlayoutSummary.of(np.array([5, 6, 7, 8]), np.array([5, 6, 7, 8]), mask,
                             np.array([True, True, True, False]), 3)
    assert (s.wins, s.shared, s.draws) == ((1, 0, 0), 1, 1)  # the draw was counted as shared
    assert s.shares == (3, 2, 1)


def test_churn_tie_is_a_draw_in_the_summary():
    g = hc.Churn(sides=(2, 3, 2, 3, 2, 3), pie=False)
    assert g.board.num_cells % 2 == 0
    p = hc.random_playouts(g, 400, seed=3)
    s = p.summary()
    ties = int((p.finished & (p.winner_mask == 3)).sum())
    assert ties > 0 and s.draws == ties and s.shared == 0


def test_match_outcome_of_shared_wins_and_draws():
    assert _outcome([2], 2) == "win" and _outcome([2], 1) == "loss"
    assert _outcome([1, 2, 3], 3) == "draw"          # every seat: a draw
    assert _outcome([1, 3], 1) == "draw"             # a shared win
    assert _outcome([1, 3], 2) == "loss"             # was "draw": seat 2 did not share the result
