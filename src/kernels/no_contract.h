/* no_contract.h - included first by a file whose arithmetic must never be fused: a*b + c
 * rounded twice, as DirectML defines DML_SCALE_BIAS and dmlc FILL_VALUE_SEQUENCE's floats.
 * A fused multiply-add rounds only once and differs in the last bit for some inputs.  GCC
 * contracts a*b + c into an FMA whenever the target has the instruction (its default outside
 * ISO C mode is -ffp-contract=fast, and -march=native, AArch64 or POWER have FMA).  The C
 * standard's FP_CONTRACT pragma turns contraction off for clang and the compilers that follow
 * the standard; GCC ignores that pragma (and warns), but honours its own optimize pragma for
 * the functions after it. */
#ifndef DMLC_NO_CONTRACT_H
#define DMLC_NO_CONTRACT_H
#if defined(__clang__)
#  pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#  pragma GCC optimize("fp-contract=off")
#elif defined(_MSC_VER)
#  pragma fp_contract(off)
#else
#  pragma STDC FP_CONTRACT OFF
#endif
#endif /* DMLC_NO_CONTRACT_H */
