"""Self-play actors on a Ray cluster (``train(..., ray=True)``,
``python -m hexcore train SPEC --ray``; ``pip install 'hexcore[ray]'``).

The layout of muzero-general: self-play actors, a shared store of the
newest weights, and the replay buffer with the learner.

- **Actors** (:class:`SelfPlayActor`, one Ray actor each, ``threads`` CPUs)
  run :func:`~hexcore.train.selfplay.play_generation` with a CPU copy of
  the network and send back the positions with their targets (Samples).
- **Shared storage** is Ray's object store: after the learner's steps the
  driver puts the network's weights there once (``ray.put``; the learner's
  ``weights()``, or ``state()`` for a learner without it) and hands the
  newest reference to each actor with its next generation. An actor reads
  them only when they changed, between two generations.
- **The learner** is the training loop itself (:func:`hexcore.train.train`,
  in the driver, on ``--device``): it keeps the replay buffer, takes each
  generation as one arrives (:meth:`ActorPool.generation`, in place of the
  loop's own self-play), trains, evaluates and checkpoints exactly as a run
  in one process.

Each actor is given its next generation as soon as it returns one, so it
plays on while the learner trains on what it sent, at most one generation
ahead. An actor that dies (its process killed, its node lost) is restarted
by Ray (``max_restarts``) and given a new generation; the one it was
playing is lost, nothing else. Which weights a generation is played with
depends on timing, so a run on Ray is not bit-identical to a run in one
process, or to another run on Ray.
"""
from __future__ import annotations

import os
import pickle
import socket
import time
from typing import Any, Dict, List, Tuple

from .._core import __version__
from ..spec import load
from .agent import learner_from_checkpoint, learner_name
from .selfplay import Samples, SelfPlayStats, play_generation

__all__ = ["SelfPlayActor", "ActorPool", "connect", "ACTOR_RESTARTS"]

#: times Ray restarts a self-play actor that died; after that the run goes on with the others
ACTOR_RESTARTS = 20
#: seconds to wait for a TCP connection to ``--address`` before calling it unreachable
CONNECT_TIMEOUT = 5.0


def _reachable(address: str) -> None:
    """A ``ValueError`` naming ``address`` when nothing answers there (Ray's
    own connection attempts retry for a minute or more)."""
    where = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = where.rpartition(":")
    if not sep or not port.isdigit():
        return  # not HOST:PORT: Ray reads it
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as e:
        raise ValueError(f"--address {address}: nothing answers at {host}:{port} "
                         f"({e.strerror or type(e).__name__}); is the cluster started (ray start --head)?") from None


def connect(cfg: Any) -> Tuple[Any, int]:
    """Joins the Ray cluster of ``cfg.address`` (or starts a private local
    Ray, as :mod:`hexcore.distributed` does) and returns ``(ray, actors)``:
    ``cfg.actors``, or as many actors of ``cfg.threads`` CPUs as the
    cluster holds. A ``ValueError`` where the address does not answer or
    the cluster has too few CPUs for the actors."""
    from ..distributed import _ray

    if cfg.address is not None and cfg.address not in ("auto", "local"):
        _reachable(cfg.address)
    try:
        ray = _ray(cfg.address)
    except ImportError:
        raise
    except Exception as e:  # noqa: BLE001 - whatever Ray raises, the address is at fault
        lines = [x for x in str(e).splitlines() if x.strip()]
        raise ValueError(f"--address {cfg.address}: cannot join a Ray cluster there "
                         f"({lines[-1] if lines else type(e).__name__})") from None
    cpus = int(ray.cluster_resources().get("CPU", 0))
    n = cfg.actors if cfg.actors is not None else max(1, cpus // cfg.threads)
    if n * cfg.threads > cpus:
        raise ValueError(f"--actors {n} of --threads {cfg.threads} need {n * cfg.threads} CPUs; the Ray cluster has "
                         f"{cpus}: give fewer --actors or --threads, or add nodes")
    return ray, n


class SelfPlayActor:
    """One self-play actor (made a Ray actor by :class:`ActorPool`): plays
    generations of ``spec`` with a CPU copy of the learner ``learner`` (its
    ``module:qualname``) made from the published weights."""

    def __init__(self, spec: str, learner: str) -> None:
        self.game = load(spec)
        self.learner_name = learner
        self.evaluator: Any = None
        self.version = -1

    def play(self, weights: List[Any], version: int,
             kwargs: Dict[str, Any]) -> Tuple[str, str, Samples, SelfPlayStats, float, int]:
        """One generation (``kwargs`` of ``play_generation``) with the
        weights ``weights[0]`` (an object reference, in a list so that Ray
        does not fetch it unless they changed) of learner step ``version``.
        Returns the hexcore version, where it ran (``pid N on HOST, node
        ID``: the first 8 hex digits of Ray's node id), the
        positions, their statistics, the CPU seconds spent and the step of
        the weights used."""
        import ray

        if version != self.version:
            state = pickle.loads(ray.get(weights[0]))
            self.evaluator = learner_from_checkpoint({"learner": self.learner_name, "learner_state": state,
                                                      "path": f"(the weights of step {version})"})
            self.version = version
        cpu0 = time.process_time()
        samples, stats = play_generation(self.game, self.evaluator, **kwargs)
        where = f"pid {os.getpid()} on {socket.gethostname()}, node {ray.get_runtime_context().get_node_id()[:8]}"
        return __version__, where, samples, stats, time.process_time() - cpu0, version


class ActorPool:
    """The actors of a run and the newest weights published to them.
    :meth:`generation` takes the place of the loop's own self-play; see the
    module's notes."""

    def __init__(self, run: Any, st: Dict[str, Any], cluster: Tuple[Any, int], log: Any) -> None:
        ray, n = cluster
        self.ray, self.run, self.log = ray, run, log
        cfg = run.cfg
        remote = ray.remote(SelfPlayActor).options(num_cpus=cfg.threads, max_restarts=ACTOR_RESTARTS,
                                                   max_task_retries=0)
        name = learner_name(st["learner"])
        self.actors = [remote.remote(cfg.spec, name) for _ in range(n)]
        self.losses = [0] * n
        #: where each actor last ran ("pid N on HOST, node ID"), from its generations
        self.where = [""] * n
        self.inflight: Dict[Any, int] = {}
        self.version = -1
        self.ref: Any = None
        self.publish_bytes = 0
        self.publish_seconds = 0.0
        self.positions = 0
        self.first: Any = None   # (time, positions) at the first generation received
        self.lost = 0
        self.publish(st)
        self.start = time.perf_counter()
        for i in range(n):
            self.submit(i, st)
        log(f"self-play on {n} Ray actors of {cfg.threads} CPUs each; weights of {self.publish_bytes / 1e6:.2f} MB "
            f"published after each round of training steps")

    def publish(self, st: Dict[str, Any]) -> None:
        """Puts the learner's weights in the object store, once per step
        count (the actors' next generations use them)."""
        if st["step"] == self.version:
            return
        t0 = time.perf_counter()
        learner = st["learner"]
        payload = learner.weights() if hasattr(learner, "weights") else learner.state()
        blob = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
        self.ref = self.ray.put(blob)
        self.version = st["step"]
        self.publish_bytes = len(blob)
        self.publish_seconds = time.perf_counter() - t0

    def submit(self, i: int, st: Dict[str, Any]) -> None:
        ref = self.actors[i].play.remote([self.ref], self.version, self.run.deal(st))
        self.inflight[ref] = i

    def generation(self, st: Dict[str, Any]) -> None:
        """Publishes the newest weights, then waits for the next generation
        any actor finishes, gives that actor its next one and adds the
        positions to the run (:meth:`_Run.add_generation`)."""
        ray = self.ray
        self.publish(st)
        while True:
            if not self.inflight:
                raise RuntimeError(f"every self-play actor is lost (each was restarted {ACTOR_RESTARTS} times); "
                                   "the checkpoint is kept: continue with --resume")
            ready, _ = ray.wait(list(self.inflight), num_returns=1)
            i = self.inflight.pop(ready[0])
            try:
                version, where, samples, stats, cpu, used = ray.get(ready[0])
            except ray.exceptions.RayActorError as e:
                self.lost += 1
                self.losses[i] += 1
                lines = [x for x in str(e).splitlines() if x.strip()]
                what = f"actor {i} ({self.where[i] or 'not started'}) lost: {lines[0][:160] if lines else type(e).__name__}"
                if self.losses[i] > ACTOR_RESTARTS:
                    self.log(f"{what}; it was restarted {ACTOR_RESTARTS} times, going on with {len(self.inflight)}")
                    continue
                self.log(f"{what}; its unfinished generation is dropped, Ray restarts it")
                self.submit(i, st)  # held by Ray until the actor is back
                continue
            if version != __version__:
                raise RuntimeError(f"a worker runs hexcore {version}, the driver {__version__}; "
                                   "install the same version on every node (seeded results differ between versions)")
            self.submit(i, st)
            self.where[i] = where
            self.run.remote_cpu += cpu
            own = len(samples) / max(stats.seconds, 1e-9)
            now = time.perf_counter()
            if self.first is None:
                self.first = (now, len(samples))
            # all actors together: the positions received since the first generation arrived (the actors'
            # start-up left out), per second; at the first, that actor's own rate
            total = own if now == self.first[0] else (self.positions + len(samples) - self.first[1]) / (now - self.first[0])
            self.positions += len(samples)
            self.run.add_generation(st, samples, stats, cpu, actor=i, where=where, actors=len(self.actors),
                                    weights_step=used, weights_age=st["step"] - used, positions_per_second=own,
                                    positions_per_second_total=total,
                                    publish_bytes=self.publish_bytes, publish_seconds=self.publish_seconds,
                                    actors_lost=self.lost)
            return

    def close(self) -> None:
        """Stops the actors (the generations they were playing are dropped)."""
        for a in self.actors:
            try:
                self.ray.kill(a, no_restart=True)
            except Exception:  # noqa: BLE001 - an actor already gone
                pass
        self.inflight.clear()
