"""The Ray backend against a local Ray instance: results equal the local run."""
import numpy as np
import pytest
import ray

import hexcore as hc
from hexcore import distributed


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_perft_matches_local(local_ray):
    g = hc.Churn(size=3)
    assert distributed.perft(g, 4) == hc.perft(g, 4)
    assert distributed.perft(g, 3, unit="action") == hc.perft(g, 3, unit="action")
    assert dict(distributed.perft(g, 3, divide=True)) == dict(hc.perft(g, 3, divide=True))
    assert distributed.perft(g, 0) == 1


def test_playouts_match_local(local_ray):
    g = hc.Churn(size=4)
    a = distributed.random_playouts(g, 250, seed=9, chunk=60)
    b = hc.random_playouts(g, 250, seed=9)
    assert np.array_equal(a.plies, b.plies) and np.array_equal(a.winner_mask, b.winner_mask)
    assert len(distributed.random_playouts(g, 0)) == 0
