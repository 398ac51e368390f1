"""The small sweep the sweep tests share: four real cards of a deck list, a one-turn template."""

from verifier.sweep import SweepTemplate

# three set-asides and a heal: six pairs, the three with the heal show findings
SMALL_DECK = "Main Deck:\n1\tMeditation (B)\n2\tProvisions\n1\tMustering for War\nReserve:\n1\tMiracle of Healing\n"
SMALL_TEMPLATE = SweepTemplate(turns=1, phases=("Preparation",), attempts=("play",), per_phase=2, max_attempts=2)
SMALL_OPTIONS = ["--turns", "1", "--phases", "Preparation", "--attempts", "play", "--per-phase", "2", "--max-attempts", "2"]
