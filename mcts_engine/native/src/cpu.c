/* cpu_fast_bits (cpu.h): the one check of the CPU behind the kernels' second compilation. */
#include "cpu.h"

#if CPU_TWO_COMPILATIONS
#include <cpuid.h>
#endif

int cpu_fast_bits(void)
{
#if CPU_TWO_COMPILATIONS
    unsigned eax, ebx, ecx, edx;
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt") || !__builtin_cpu_supports("bmi") || !__builtin_cpu_supports("bmi2")
        || !__get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) || !(ecx & (1u << 5)))    /* LZCNT */
        return 0;
    if (__builtin_cpu_is("intel"))
        return 1;
    if (__builtin_cpu_is("amd") && __get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return ((eax >> 8) & 0xf) + ((eax >> 20) & 0xff) >= 0x19;     /* Zen 3 on: pext in hardware */
#endif
    return 0;
}
