"""What the benchmarks share, so that no benchmark imports another, or the tests.

measure.py  medians and percentiles, a process's CPU clock and RSS, GC and log counters
world.py    the in-process world: our bot (or another) logged in to the fake Discord, N
            games one per channel, and the play step (one click, answered and checked)
ours.py     the few pieces of the bot the benchmarks build on, imported in one place
processes.py a real bot process on its loopback fake Discord: started, stopped, its CPU
             once quiet, RSS and child processes; the random classic games played there
"""
