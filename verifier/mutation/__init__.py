"""Mutation analysis of the encodings: how well the case table pins down what each rule does."""

from .mutants import KINDS, Mutant, Mutation, mutations
from .report import MutationReport, SectionScore, mutation_json, mutation_text
from .run import MutantResult, MutantStatus, answer_and_mutate, naive_status, run_mutations

__all__ = ["KINDS", "Mutant", "Mutation", "mutations", "MutantResult", "MutantStatus", "run_mutations",
           "naive_status", "answer_and_mutate", "MutationReport", "SectionScore", "mutation_json", "mutation_text"]
