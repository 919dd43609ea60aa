"""Helpers for testing code that reads or writes profiles (profdata's own tests and yours).

:mod:`profdata.testing.strategies` holds hypothesis strategies (hypothesis is
a test extra, imported only by that module).
"""
