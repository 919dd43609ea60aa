"""``python -m profdata``."""

from profdata.cli import console_main

console_main()
