"""A case file read section by section, each section a class the next one builds on (`loader` reads with the last)."""
