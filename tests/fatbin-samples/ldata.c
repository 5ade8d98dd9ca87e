/* cuFFT's layout in small: one module in .nv_fatbin, the rest in .ldata,
 * found only through the pointers to them (R_X86_64_RELATIVE relocations). */
__asm__(".section .nv_fatbin,\"a\"\n.balign 8\n.incbin \"f75.fatbin\"\n"
        ".section .ldata,\"aw\"\n.balign 8\nfb90p: .incbin \"f90p.fatbin\"\n.balign 8\nfb90: .incbin \"f90.fatbin\"\n"
        ".balign 8\n.quad 0x1122334455667788\n.balign 8\nfb80: .incbin \"f80.fatbin\"\n.balign 8\nfblto: .incbin \"flto.fatbin\"\n"
        ".section .data.rel.ro,\"aw\"\n.balign 8\n.globl modules\nmodules: .quad fb90p\n.quad fb80\n.quad fblto\n");
