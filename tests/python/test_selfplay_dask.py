"""Distributed self-play on Dask: a loopback scheduler with two worker processes, one killed with
SIGKILL while it plays a shard. Every shard must exist exactly once, every record replay with the
engine, and a second run must write nothing new; a shard written again is byte for byte the same."""
import filecmp
import os
import shutil
import signal
import time

from distributed import Client, LocalCluster

import carcassonne
from carcassonne import selfplay

BOTS = ["mcts:playouts=100,threads=1", "greedy"]


def test_shards_survive_a_killed_worker(tmp_path):
    out = str(tmp_path / "records")
    seeds = range(100, 160)
    expect = [selfplay.shard_name(f, l) for f, l in selfplay.shards(seeds, 6)]
    assert len(expect) == 10
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, silence_logs=50) as cluster, Client(cluster) as client:
        futures = selfplay.submit(client, "base", seeds, out, bots=BOTS, shard_size=6)
        assert len(futures) == 10
        # once a shard is whole, kill a worker that is playing one
        deadline = time.time() + 120
        victim = None
        while victim is None:
            assert time.time() < deadline, "no shard finished in time"
            busy = {w: ks for w, ks in client.processing().items() if ks}
            if any(d.startswith("shard-") for d in os.listdir(out)) and busy:
                victim = sorted(busy)[0]
            else:
                time.sleep(0.02)
        pids = client.run(os.getpid)
        os.kill(pids[victim], signal.SIGKILL)
        client.gather(futures)  # the killed worker's shard is played again elsewhere
        selfplay.clean(out)
        assert sorted(os.listdir(out)) == expect, "every shard exactly once, no leftovers"
        # a second run finds everything written
        assert selfplay.submit(client, "base", seeds, out, bots=BOTS, shard_size=6) == []
        # a shard played again is the same files
        again = str(tmp_path / "again")
        os.makedirs(again)
        first, last = selfplay.shards(seeds, 6)[3]
        path = client.submit(selfplay.play_shard, again, "base", 2, None, BOTS, first, last).result()
        cmp = filecmp.dircmp(path, os.path.join(out, selfplay.shard_name(first, last)))
        assert not cmp.diff_files and not cmp.left_only and not cmp.right_only
        assert all(filecmp.cmp(os.path.join(path, f), os.path.join(out, selfplay.shard_name(first, last), f), shallow=False)
                   for f in os.listdir(path))
    files = [os.path.join(out, d, f) for d in expect for f in sorted(os.listdir(os.path.join(out, d)))]
    assert [int(os.path.basename(f)[5:14]) for f in files] == list(seeds), "each seed's game once"
    for f in files:
        with open(f) as fh:
            state = carcassonne.from_record(fh.read())
        assert state.is_terminal()
    shutil.rmtree(out)
