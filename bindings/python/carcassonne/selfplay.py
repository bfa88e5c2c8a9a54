"""Distributed self-play on Dask (docs/python.md): seed ranges in, record files out.

A shard is a range of seeds; each seed is one whole game between engine bots (or a policy of your
own), chance and bots seeded from it, so a shard's files are the same however often it runs. A
shard writes into a hidden folder and renames it into place when it is whole: a shard folder that
exists is complete, and a shard already written is skipped. A worker that dies mid-shard leaves at
most a hidden folder, which the next attempt (Dask retries the task elsewhere) replaces, and which
`run` removes at the end.

    python3 -m carcassonne.selfplay --scheduler tcp://127.0.0.1:8786 --game base \\
        --bots greedy,random --seeds 0:1000 --shard 50 --out records/

or from Python: ``carcassonne.selfplay.run(client, "base", range(1000), "records/", bots=["greedy"])``.
"""
import argparse
import os
import shutil
import uuid

import carcassonne


def split_bots(text):
    """'mcts:playouts=300,threads=1,greedy' -> ['mcts:playouts=300,threads=1', 'greedy']: a part
    with '=' that does not start a bot belongs to the bot before it (as the engine splits them)."""
    out = []
    for part in (p.strip() for p in text.split(",")):
        if out and "=" in part and ":" not in part:
            out[-1] += "," + part
        elif part:
            out.append(part)
    return out


def shard_name(first, last):
    """The folder of the shard of seeds [first, last)."""
    return f"shard-{first:09d}-{last:09d}"


def check_bots(bots):
    """The bots as a list of engine bot specs, or ValueError/TypeError naming what is wrong."""
    if isinstance(bots, str):
        bots = split_bots(bots)
    if not isinstance(bots, (list, tuple)) or not bots:
        raise ValueError(f"bots: a non-empty list of engine bot specs, not {bots!r}")
    for i, spec in enumerate(bots):
        if not isinstance(spec, str):
            raise TypeError(f"bots[{i}]: a bot spec is a str, not {type(spec).__name__}")
        try:
            carcassonne.check_bot(spec)
        except ValueError as e:
            raise ValueError(f"bots[{i}]: {e}") from None
    return list(bots)


def check_seed(seed, what="seed"):
    if isinstance(seed, bool) or not isinstance(seed, int) and not hasattr(seed, "__index__"):
        raise TypeError(f"{what}: an int, not {type(seed).__name__}")
    seed = int(seed.__index__())
    if not 0 <= seed < 2**64:
        raise ValueError(f"{what}: {seed} is not from 0 to 2**64 - 1")
    return seed


def play_game(game, seed, bots):
    """One whole game from `seed`: chance from the state's generator, seat p played by bots[p]
    (an engine bot spec), each decision's bot seeded from the seed and the move number."""
    bots = check_bots(bots)
    seed = check_seed(seed)
    state = game.new_initial_state(seed=seed)
    k = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome())
            continue
        spec = bots[state.current_player() % len(bots)]
        state.apply_action(carcassonne.bot_action(state, spec, (seed * 1000003 + k) % 2**64))
        k += 1
    return state


def play_shard(out, name, players, options, bots, first, last):
    """Writes the games of seeds [first, last) into out/shard-...; returns its path. Idempotent."""
    final = os.path.join(out, shard_name(first, last))
    if os.path.isdir(final):
        return final
    tmp = os.path.join(out, f".tmp-{shard_name(first, last)}-{uuid.uuid4().hex}")
    os.makedirs(tmp)
    game = carcassonne.Game(name, players=players, options=options or {})
    for seed in range(first, last):
        state = play_game(game, seed, bots)
        path = os.path.join(tmp, f"game-{seed:09d}.json")
        with open(path, "w") as f:
            f.write(state.to_record_json())
            f.flush()
            os.fsync(f.fileno())
    try:
        os.rename(tmp, final)  # atomic: the shard appears whole or not at all
    except OSError:
        if not os.path.isdir(final):  # another attempt won the race: its files are the same
            raise
        shutil.rmtree(tmp, ignore_errors=True)
    return final


def shards(seeds, size):
    """The [first, last) ranges of consecutive seeds, `size` at most each."""
    seeds = list(seeds)
    if size < 1:
        raise ValueError("shard size must be at least 1")
    out = []
    i = 0
    while i < len(seeds):
        first = seeds[i]
        last = first
        while i < len(seeds) and seeds[i] == last and last - first < size:
            last += 1
            i += 1
        out.append((first, last))
    return out


def submit(client, name, seeds, out, bots=("greedy",), players=2, options=None, shard_size=50, retries=3):
    """Submits one Dask task per shard not yet written; returns the futures."""
    bots = check_bots(bots)
    seeds = [check_seed(x, "seeds") for x in seeds]
    carcassonne.Game(name, players=players, options=options or {})  # the game and its options, checked here
    os.makedirs(out, exist_ok=True)
    futures = []
    for first, last in shards(seeds, shard_size):
        if os.path.isdir(os.path.join(out, shard_name(first, last))):
            continue
        futures.append(client.submit(play_shard, out, name, players, options, list(bots), first, last,
                                     key=f"carcassonne-{name}-{shard_name(first, last)}-{uuid.uuid4().hex[:8]}",
                                     retries=retries, pure=False))
    return futures


def clean(out):
    """Removes the hidden folders left by attempts that died."""
    for d in os.listdir(out):
        if d.startswith(".tmp-shard-"):
            shutil.rmtree(os.path.join(out, d), ignore_errors=True)


def run(client, name, seeds, out, bots=("greedy",), players=2, options=None, shard_size=50, retries=3):
    """Plays every shard of `seeds` on the Dask cluster of `client`; returns the shard folders."""
    futures = submit(client, name, seeds, out, bots, players, options, shard_size, retries)
    client.gather(futures)
    clean(out)
    return [os.path.join(out, shard_name(f, l)) for f, l in shards(seeds, shard_size)]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m carcassonne.selfplay", description=__doc__.split("\n\n")[0])
    ap.add_argument("--scheduler", help="a Dask scheduler's address (default: a local cluster on this machine)")
    ap.add_argument("--workers", type=int, default=2, help="workers of the local cluster")
    ap.add_argument("--game", default="base")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bots", default="greedy", help="comma-separated engine bots by seat (random, greedy, mcts:..., easy, normal, hard)")
    ap.add_argument("--seeds", default="0:100", help="FIRST:LAST (LAST excluded)")
    ap.add_argument("--shard", type=int, default=50, help="games per shard")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    from distributed import Client, LocalCluster
    first, last = (int(x) for x in a.seeds.split(":"))
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        client = Client(LocalCluster(n_workers=a.workers, threads_per_worker=1, host="127.0.0.1", dashboard_address=None))
    with client:
        done = run(client, a.game, range(first, last), a.out, split_bots(a.bots), a.players, None, a.shard)
    print(f"{len(done)} shards in {a.out}")


if __name__ == "__main__":
    main()
