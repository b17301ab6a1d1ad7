0000000000001900 <ballot_w64>:
	s_load_b64 s[0:1], s[2:3], null                            // 000000001900: F4040001 F8000000
	v_and_b32_e32 v2, 0x3ff, v0                                // 000000001908: 360400FF 000003FF
	v_and_b32_e32 v3, 1, v0                                    // 000000001910: 36060081
	v_mov_b32_e32 v1, 0                                        // 000000001914: 7E020280
	v_mbcnt_lo_u32_b32 v4, -1, 0                               // 000000001918: D71F0004 000100C1
	s_delay_alu instid0(VALU_DEP_4) | instskip(NEXT) | instid1(VALU_DEP_4)// 000000001920: BF870214
	v_lshl_or_b32 v0, s6, 7, v2                                // 000000001924: D6560000 04090E06
	v_cmp_ne_u32_e32 vcc_lo, 0, v3                             // 00000000192C: 7C9A0680
	s_delay_alu instid0(VALU_DEP_3) | instskip(NEXT) | instid1(VALU_DEP_3)// 000000001930: BF870193
	v_mbcnt_hi_u32_b32 v2, -1, v4                              // 000000001934: D7200002 000208C1
	v_lshlrev_b64 v[0:1], 2, v[0:1]                            // 00000000193C: D73C0000 00020082
	s_bcnt1_i32_b64 s2, vcc                                    // 000000001944: BE82196A
	s_delay_alu instid0(VALU_DEP_2) | instid1(SALU_CYCLE_1)    // 000000001948: BF870482
	v_mad_u32_u24 v2, 0x3e8, v2, s2                            // 00000000194C: D60B0002 000A04FF 000003E8
	s_waitcnt lgkmcnt(0)                                       // 000000001958: BF89FC07
	s_delay_alu instid0(VALU_DEP_2) | instskip(NEXT) | instid1(VALU_DEP_3)// 00000000195C: BF870192
	v_add_co_u32 v0, vcc_lo, s0, v0                            // 000000001960: D7006A00 00020000
	v_add_co_ci_u32_e32 v1, vcc_lo, s1, v1, vcc_lo             // 000000001968: 40020201
	global_store_b32 v[0:1], v2, off                           // 00000000196C: DC6A0000 007C0200
	s_nop 0                                                    // 000000001974: BF800000
	s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)                       // 000000001978: BFB60003
	s_endpgm                                                   // 00000000197C: BFB00000
