#!/usr/bin/env python3
"""The host chase's split schedule (kernels/backend/host/chase.c), counted.

Every step costs one unit and nothing else costs anything: no cache, no
latency between the threads.  Each thread runs its steps in its own order,
each step as soon as the thread is free and the steps it waits for are
done: step j of sweep s after step min(j+2, last) of sweep s-1, and the
first step of a range after its sweep's step before (the thread before).
What is left is the schedule's own parallelism: the speed-up over one
thread on P threads, for the range cut by step (each thread the same
steps of every sweep of a group, `shift` 0: the library's) or moved by
`shift` steps a sweep (2: cut along the group's wavefront).  With
`overlap` 1, a thread starts each group's rounds as its range of the
group before ends, so that a group's last rounds (where the two threads
at a cut take turns) run beside the next group's first ones; 0: one
group after the other, each in wavefront order; 2 (the library's, shift
0 only): two groups in flight, each unit a thread runs the first ready
step of its group in wavefront order, else of the next group's, else
waits (chase.c, "two groups in flight").

    tools/chase_model.py [n=4000] [b=64] [threads=2,4,8,15]
        [shift=0,2; overlap 2: 0] [group=4] [overlap=2]

Python 3's standard library only.
"""
import sys

LAG = 2   # chase.c CHASE_LAG: rounds between a group's sweeps


def steps_of(n, b, s):
    """Steps of sweep s of the Hermitian chase (chase.c steps_of)."""
    return 0 if s + 2 > n - 1 else (n - 3 - s) // b + 1


def sweeps_of(n, b):
    """The sweeps that have steps (chase.c run_chase: a prefix)."""
    sweeps = n - 2
    while sweeps > 0 and steps_of(n, b, sweeps - 1) == 0:
        sweeps -= 1
    return sweeps


def waits_of(n, b, s, j, first):
    """The steps that step j of sweep s waits for: step j+2 of the sweep
    before (its last, if shorter) and, at a range's first step, the step
    before (the thread before's)."""
    waits = []
    if s > 0:
        need = min(j + 3, steps_of(n, b, s - 1))
        if need > 0:
            waits.append((s - 1, need - 1))
    if first:
        waits.append((s, j - 1))
    return waits


def thread_orders(n, b, threads, shift, group, overlap=0):
    """Per thread, its steps (sweep, step, first of a range) in order."""
    sweeps = sweeps_of(n, b)
    orders = [[] for _ in range(threads)]
    # overlap: a step's round counted from the thread's first, each group
    # starting its range's length (at least one round past the group
    # before's last step it waits for) after the one before
    start = [0] * threads
    for s0 in range(0, sweeps, group):
        gn = min(group, sweeps - s0)
        steps = [steps_of(n, b, s0 + k) for k in range(gn)]
        mean = sum(steps) / gn

        def cut(t):
            if t == 0:
                return -(1 << 30)
            if t >= threads:
                return 1 << 30
            if shift == 0:   # chase.c range_start
                return steps[0] * t // threads
            return int(mean * t / threads + shift * (gn - 1) / 2 + 0.5)

        for t in range(threads):
            mine = []
            for k in range(gn):
                lo = max(0, cut(t) - shift * k)
                hi = min(steps[k], cut(t + 1) - shift * k)
                mine += [(j + LAG * k, k, j, j == lo and j > 0)
                         for j in range(lo, hi)]
            if overlap:
                lo0 = max(0, cut(t))
                orders[t] += [(start[t] + r - lo0, s0 + k, j, first)
                              for r, k, j, first in mine]
                start[t] += max(min(steps[0], cut(t + 1)) - lo0,
                                LAG * gn + 1)
            else:
                orders[t] += [(s0 + k, j, first)
                              for _, k, j, first in sorted(mine)]
    if overlap:
        orders = [[x[1:] for x in sorted(o)] for o in orders]
    return orders


def flights_speedup(n, b, threads, group):
    """The speed-up of two groups in flight (overlap 2), cut by step."""
    sweeps = sweeps_of(n, b)
    groups = (sweeps + group - 1) // group
    finish = {}

    def done_by(step, now):
        return step in finish and finish[step] <= now

    def open_flight(t, g):
        s0 = g * group
        steps0 = steps_of(n, b, s0)
        lo = steps0 * t // threads
        hi = steps0 * (t + 1) // threads if t + 1 < threads else 1 << 30
        return [[s0 + k, lo, min(hi, steps_of(n, b, s0 + k)), lo]
                for k in range(min(group, sweeps - s0))]

    def ready_step(flight, now):
        """The flight's first ready sweep in wavefront order, or None."""
        live = [(sw[3] - sw[1] + LAG * k, k) for k, sw in enumerate(flight)
                if sw[3] < sw[2]]
        for _, k in sorted(live):
            s, lo, _, j = flight[k]
            if all(done_by(w, now)
                   for w in waits_of(n, b, s, j, j == lo and j > 0)):
                return k
        return None

    opened = [0] * threads            # groups each thread has opened
    flights = [[] for _ in range(threads)]
    total = sum(steps_of(n, b, s) for s in range(sweeps))
    left, now = total, 0
    while left:
        for t in range(threads):
            fl = flights[t]
            while fl and all(sw[3] >= sw[2] for sw in fl[0]):
                fl.pop(0)
            if not fl and opened[t] < groups:
                fl.append(open_flight(t, opened[t]))
                opened[t] += 1
            for f in range(2):
                if f == len(fl):
                    # a second flight once the thread before opened it
                    if (f == 0 or opened[t] >= groups or
                            (t > 0 and opened[t - 1] <= opened[t])):
                        break
                    fl.append(open_flight(t, opened[t]))
                    opened[t] += 1
                k = ready_step(fl[f], now)
                if k is not None:
                    sw = fl[f][k]
                    finish[(sw[0], sw[3])] = now + 1
                    sw[3] += 1
                    left -= 1
                    break
        now += 1
        if now > 4 * total + 10:
            raise SystemExit("chase_model: the schedule deadlocks")
    return total / now


def speedup(n, b, threads, shift=0, group=4, overlap=0):
    if overlap == 2:
        if shift:
            raise SystemExit("chase_model: overlap 2 counts shift 0 only")
        return flights_speedup(n, b, threads, group)
    orders = thread_orders(n, b, threads, shift, group, overlap)
    finish, pos = {}, [0] * threads
    free = [0] * threads
    left = sum(len(o) for o in orders)
    total = left
    while left:
        moved = False
        for t in range(threads):
            while pos[t] < len(orders[t]):
                s, j, first = orders[t][pos[t]]
                waits = waits_of(n, b, s, j, first)
                if any(w not in finish for w in waits):
                    break
                start = max([free[t]] + [finish[w] for w in waits])
                finish[(s, j)] = free[t] = start + 1
                pos[t] += 1
                left -= 1
                moved = True
        if not moved:
            raise SystemExit("chase_model: the schedule deadlocks")
    return total / max(free)


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 4000
    b = int(argv[2]) if len(argv) > 2 else 64
    threads = [int(x) for x in (argv[3] if len(argv) > 3 else "2,4,8,15")
               .split(",")]
    overlap = int(argv[6]) if len(argv) > 6 else 2
    shifts = [int(x) for x in (argv[4] if len(argv) > 4 else
                               "0" if overlap == 2 else "0,2").split(",")]
    group = int(argv[5]) if len(argv) > 5 else 4
    for shift in shifts:
        row = ", ".join(
            f"{p}: {speedup(n, b, p, shift, group, overlap):.2f}x"
            for p in threads)
        print(f"n={n} b={b} group={group} shift={shift} overlap={overlap}: "
              f"{row}")


if __name__ == "__main__":
    main(sys.argv)
