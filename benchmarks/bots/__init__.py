"""Bot processes for benchmarks/real_process.py, each run as a script against the loopback fake
Discord (fake_discord/launch.py URL SCRIPT ...): the peer (discord.py's own example), the floor
(the least discord.py allows for a click), and a wrapper that profiles any of them on signal."""
