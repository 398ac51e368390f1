"""The commands of `regcheck`, one module each; `cli` assembles them into the command group."""
