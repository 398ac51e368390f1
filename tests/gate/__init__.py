"""Tests of the CI gate (`regcheck gate`)."""
