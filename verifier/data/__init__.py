"""Data bundled with regcheck: the card list (`cards.tsv`) and the reviewed readings of card texts (`card-overrides.yaml`)."""
