0000000000001600 <dispatch_dims>:
	s_clause 0x1                                               // 000000001600: BF850001
	s_load_b32 s4, s[0:1], 0x4                                 // 000000001604: F4000100 F8000004
	s_load_b32 s5, s[0:1], 0xc                                 // 00000000160C: F4000140 F800000C
	s_load_b64 s[0:1], s[2:3], null                            // 000000001614: F4040001 F8000000
	s_waitcnt lgkmcnt(0)                                       // 00000000161C: BF89FC07
	s_and_b32 s2, s4, 0xffff                                   // 000000001620: 8B02FF04 0000FFFF
	s_lshl_b32 s3, s5, 16                                      // 000000001628: 84039005
	v_mad_u64_u32 v[1:2], null, s15, s2, v[0:1]                // 00000000162C: D6FE7C01 0400040F
	v_mov_b32_e32 v2, 0                                        // 000000001634: 7E040280
	s_lshl_b32 s2, s2, 8                                       // 000000001638: 84028802
	s_delay_alu instid0(SALU_CYCLE_1) | instskip(NEXT) | instid1(VALU_DEP_1)// 00000000163C: BF870099
	s_add_i32 s3, s3, s2                                       // 000000001640: 81030203
	v_lshlrev_b64 v[2:3], 2, v[1:2]                            // 000000001644: D73C0002 00020282
	v_and_or_b32 v4, 0xff, v1, s3                              // 00000000164C: D6570004 000E02FF 000000FF
	s_delay_alu instid0(VALU_DEP_2) | instskip(NEXT) | instid1(VALU_DEP_3)// 000000001658: BF870192
	v_add_co_u32 v0, vcc_lo, s0, v2                            // 00000000165C: D7006A00 00020400
	v_add_co_ci_u32_e32 v1, vcc_lo, s1, v3, vcc_lo             // 000000001664: 40020601
	global_store_b32 v[0:1], v4, off                           // 000000001668: DC6A0000 007C0400
	s_nop 0                                                    // 000000001670: BF800000
	s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)                       // 000000001674: BFB60003
	s_endpgm                                                   // 000000001678: BFB00000
