0000000000001600 <scale>:
	s_load_b128 s[4:7], s[0:1], null                           // 000000001600: F4080100 F8000000
	v_lshl_add_u32 v0, s15, 6, v0                              // 000000001608: D6460000 04010C0F
	s_load_b32 s0, s[0:1], 0x10                                // 000000001610: F4000000 F8000010
	v_mov_b32_e32 v1, 0                                        // 000000001618: 7E020280
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(VALU_DEP_1)// 00000000161C: BF8700A1
	v_lshlrev_b64 v[0:1], 2, v[0:1]                            // 000000001620: D73C0000 00020082
	s_waitcnt lgkmcnt(0)                                       // 000000001628: BF89FC07
	v_add_co_u32 v2, vcc_lo, s4, v0                            // 00000000162C: D7006A02 00020004
	s_delay_alu instid0(VALU_DEP_2)                            // 000000001634: BF870002
	v_add_co_ci_u32_e32 v3, vcc_lo, s5, v1, vcc_lo             // 000000001638: 40060205
	v_add_co_u32 v0, vcc_lo, s6, v0                            // 00000000163C: D7006A00 00020006
	v_add_co_ci_u32_e32 v1, vcc_lo, s7, v1, vcc_lo             // 000000001644: 40020207
	global_load_b32 v2, v[2:3], off                            // 000000001648: DC520000 027C0002
	s_waitcnt vmcnt(0)                                         // 000000001650: BF8903F7
	v_mul_f32_e32 v2, s0, v2                                   // 000000001654: 10040400
	global_store_b32 v[0:1], v2, off                           // 000000001658: DC6A0000 007C0200
	s_nop 0                                                    // 000000001660: BF800000
	s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)                       // 000000001664: BFB60003
	s_endpgm                                                   // 000000001668: BFB00000
