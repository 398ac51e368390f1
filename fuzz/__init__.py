"""Fuzzing of regcheck's input readers: mutators of valid files, the targets they are fed to, a runner.

`fuzz.mutators` turns a valid case or encoding file (or a rule-language expression) into a
malformed one, driven by a `random.Random`; `fuzz.targets` feeds the result to the case loader,
the encoding reader or the expression parser and says whether the reader failed the way it must:
with the project's `InputError`, naming the file and a line in it. `fuzz/run.py` runs many
inputs and prints the count and every failure; `fuzz/atheris_*.py` are coverage-guided harnesses.
"""
