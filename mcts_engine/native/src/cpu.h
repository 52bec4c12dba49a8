/* What this CPU runs fast, asked once: the kernels compiled twice pick their compilation by it. */
#ifndef MCTS_CPU_H
#define MCTS_CPU_H

/* 1 where GCC builds for x86-64: a kernel may then be compiled a second time for BMI, BMI2 and
 * LZCNT (`#pragma GCC target` or `__attribute__((target(...)))`) beside its plain compilation. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define CPU_TWO_COMPILATIONS 1
#else
#define CPU_TWO_COMPILATIONS 0
#endif

/* Whether this CPU has POPCNT, BMI, BMI2 and LZCNT with pext in hardware (Intel since Haswell,
 * AMD since Zen 3; earlier AMD runs pext in microcode, slower than the plain shifts), and this
 * build has the second compilation: 0 where CPU_TWO_COMPILATIONS is 0. */
int cpu_fast_bits(void);

#endif
