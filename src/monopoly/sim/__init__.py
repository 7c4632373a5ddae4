"""Batch simulation of whole games, statistics, exact landing odds and HTML reports.

- :mod:`monopoly.sim.runner` plays many games between computer players (in parallel);
- :mod:`monopoly.sim.stats` adds their results up into a :class:`Summary`;
- the exact long-run landing odds (a Markov chain) are :mod:`monopoly.core.odds`, below
  the computer players and the simulator, which both read them;
- :mod:`monopoly.sim.report` draws the plots and writes the HTML report.

See ``docs/simulator.md``.
"""
