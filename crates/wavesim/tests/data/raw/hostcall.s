0000000000001900 <ask_host>:
	s_mov_b64 s[16:17], s[2:3]                                 // 000000001900: BE900102
	s_load_b64 s[2:3], s[2:3], 0x58                            // 000000001904: F4040081 F8000058
	v_mov_b32_e32 v37, v0                                      // 00000000190C: 7E4A0300
	v_mov_b32_e32 v31, v0                                      // 000000001910: 7E3E0300
	s_add_u32 s8, s16, 8                                       // 000000001914: 80088810
	s_mov_b32 s12, s13                                         // 000000001918: BE8C000D
	s_mov_b64 s[10:11], s[4:5]                                 // 00000000191C: BE8A0104
	s_addc_u32 s9, s17, 0                                      // 000000001920: 82098011
	s_mov_b64 s[4:5], s[0:1]                                   // 000000001924: BE840100
	s_mov_b32 s13, s14                                         // 000000001928: BE8D000E
	s_mov_b32 s14, s15                                         // 00000000192C: BE8E000F
	s_mov_b32 s32, 0                                           // 000000001930: BEA00080
	s_getpc_b64 s[6:7]                                         // 000000001934: BE864700
	s_add_u32 s6, s6, 0x90                                     // 000000001938: 8006FF06 00000090
	s_addc_u32 s7, s7, 0                                       // 000000001940: 8207FF07 00000000
	s_waitcnt lgkmcnt(0)                                       // 000000001948: BF89FC07
	v_dual_mov_b32 v0, s2 :: v_dual_mov_b32 v1, s3             // 00000000194C: CA100002 00000003
	s_swappc_b64 s[30:31], s[6:7]                              // 000000001954: BE9E4906
	s_clause 0x2                                               // 000000001958: BF850002
	s_load_b32 s4, s[16:17], 0x14                              // 00000000195C: F4000108 F8000014
	s_load_b64 s[0:1], s[16:17], 0x30                          // 000000001964: F4040008 F8000030
	s_load_b64 s[2:3], s[16:17], null                          // 00000000196C: F4040088 F8000000
	v_and_b32_e32 v2, 0x3ff, v37                               // 000000001974: 36044AFF 000003FF
	s_waitcnt lgkmcnt(0)                                       // 00000000197C: BF89FC07
	s_and_b32 s4, s4, 0xffff                                   // 000000001980: 8B04FF04 0000FFFF
	s_lshl_b64 s[0:1], s[0:1], 3                               // 000000001988: 84808300
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_3) | instid1(VALU_DEP_1)// 00000000198C: BF8700C1
	v_mad_u64_u32 v[3:4], null, s12, s4, v[2:3]                // 000000001990: D6FE7C03 0408080C
	v_mov_b32_e32 v4, 0                                        // 000000001998: 7E080280
	s_add_u32 s0, s2, s0                                       // 00000000199C: 80000002
	s_addc_u32 s1, s3, s1                                      // 0000000019A0: 82010103
	v_lshlrev_b64 v[2:3], 3, v[3:4]                            // 0000000019A4: D73C0002 00020683
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_2)// 0000000019AC: BF870111
	v_add_co_u32 v2, vcc_lo, s0, v2                            // 0000000019B0: D7006A02 00020400
	v_add_co_ci_u32_e32 v3, vcc_lo, s1, v3, vcc_lo             // 0000000019B8: 40060601
	global_store_b64 v[2:3], v[0:1], off                       // 0000000019BC: DC6E0000 007C0002
	s_endpgm                                                   // 0000000019C4: BFB00000

00000000000019c8 <__ockl_hostcall_internal>:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)                    // 0000000019C8: BF890000
	s_mov_b32 s6, s33                                          // 0000000019CC: BE860021
	s_mov_b32 s33, s32                                         // 0000000019D0: BEA10020
	s_xor_saveexec_b32 s0, -1                                  // 0000000019D4: BE8024C1
	scratch_store_b32 off, v36, s33 offset:144                 // 0000000019D8: DC690090 00212400
	s_mov_b32 exec_lo, s0                                      // 0000000019E0: BEFE0000
	s_add_i32 s32, s32, 0xa0                                   // 0000000019E4: 8120FF20 000000A0
	v_writelane_b32 v36, s30, 0                                // 0000000019EC: D7610024 0001001E
	v_writelane_b32 v36, s31, 1                                // 0000000019F4: D7610024 0001021F
	scratch_store_b64 off, v[0:1], s33                         // 0000000019FC: DC6D0000 00210000
	v_mov_b32_e32 v0, 2                                        // 000000001A04: 7E000282
	scratch_store_b32 off, v0, s33 offset:8                    // 000000001A08: DC690008 00210000
	v_mov_b32_e32 v0, 42                                       // 000000001A10: 7E0002AA
	v_mov_b32_e32 v1, 0                                        // 000000001A14: 7E020280
	scratch_store_b64 off, v[0:1], s33 offset:16               // 000000001A18: DC6D0010 00210000
	v_mov_b32_e32 v0, 0                                        // 000000001A20: 7E000280
	v_mov_b32_e32 v1, 0                                        // 000000001A24: 7E020280
	scratch_store_b64 off, v[0:1], s33 offset:24               // 000000001A28: DC6D0018 00210000
	scratch_store_b64 off, v[0:1], s33 offset:32               // 000000001A30: DC6D0020 00210000
	scratch_store_b64 off, v[0:1], s33 offset:40               // 000000001A38: DC6D0028 00210000
	scratch_store_b64 off, v[0:1], s33 offset:48               // 000000001A40: DC6D0030 00210000
	scratch_store_b64 off, v[0:1], s33 offset:56               // 000000001A48: DC6D0038 00210000
	scratch_store_b64 off, v[0:1], s33 offset:64               // 000000001A50: DC6D0040 00210000
	scratch_store_b64 off, v[0:1], s33 offset:72               // 000000001A58: DC6D0048 00210000
	s_mov_b32 s0, 0                                            // 000000001A60: BE800080
	s_mov_b32 s1, -1                                           // 000000001A64: BE8100C1
	v_mbcnt_lo_u32_b32 v0, s1, s0                              // 000000001A68: D71F0000 00000001
	scratch_store_b32 off, v0, s33 offset:80                   // 000000001A70: DC690050 00210000
	scratch_load_b32 v0, off, s33 offset:80                    // 000000001A78: DC510050 00210000
	s_getpc_b64 s[0:1]                                         // 000000001A80: BE804700
	s_add_u32 s0, s0, 0x3f8                                    // 000000001A84: 8000FF00 000003F8
	s_addc_u32 s1, s1, 0                                       // 000000001A8C: 8201FF01 00000000
	s_swappc_b64 s[30:31], s[0:1]                              // 000000001A94: BE9E4900
	scratch_store_b32 off, v0, s33 offset:80                   // 000000001A98: DC690050 00210000
	scratch_load_b32 v0, off, s33 offset:80                    // 000000001AA0: DC510050 00210000
	s_waitcnt vmcnt(0)                                         // 000000001AA8: BF8903F7
	v_readfirstlane_b32 s0, v0                                 // 000000001AAC: 7E000500
	v_mov_b32_e32 v0, s0                                       // 000000001AB0: 7E000200
	scratch_store_b32 off, v0, s33 offset:84                   // 000000001AB4: DC690054 00210000
	scratch_load_b64 v[0:1], off, s33                          // 000000001ABC: DC550000 00210000
	s_waitcnt vmcnt(0)                                         // 000000001AC4: BF8903F7
	scratch_store_b64 off, v[0:1], s33 offset:88               // 000000001AC8: DC6D0058 00210000
	scratch_load_b64 v[0:1], off, s33 offset:88                // 000000001AD0: DC550058 00210000
	scratch_load_b32 v4, off, s33 offset:80                    // 000000001AD8: DC510050 04210000
	scratch_load_b32 v3, off, s33 offset:84                    // 000000001AE0: DC510054 03210000
	s_mov_b32 s5, 32                                           // 000000001AE8: BE8500A0
	s_waitcnt vmcnt(2)                                         // 000000001AEC: BF890BF7
	v_lshrrev_b64 v[1:2], s5, v[0:1]                           // 000000001AF0: D73D0001 00020005
	s_getpc_b64 s[0:1]                                         // 000000001AF8: BE804700
	s_add_u32 s0, s0, 0x388                                    // 000000001AFC: 8000FF00 00000388
	s_addc_u32 s1, s1, 0                                       // 000000001B04: 8201FF01 00000000
	s_waitcnt vmcnt(1)                                         // 000000001B0C: BF8907F7
	v_mov_b32_e32 v2, v4                                       // 000000001B10: 7E040304
	s_swappc_b64 s[30:31], s[0:1]                              // 000000001B14: BE9E4900
	scratch_store_b64 off, v[0:1], s33 offset:96               // 000000001B18: DC6D0060 00210000
	scratch_load_b64 v[2:3], off, s33 offset:88                // 000000001B20: DC550058 02210000
	scratch_load_b64 v[4:5], off, s33 offset:96                // 000000001B28: DC550060 04210000
	s_waitcnt vmcnt(1)                                         // 000000001B30: BF8907F7
	global_load_b64 v[0:1], v[2:3], off                        // 000000001B34: DC560000 007C0002
	global_load_b64 v[2:3], v[2:3], off offset:40              // 000000001B3C: DC560028 027C0002
	s_waitcnt vmcnt(2)                                         // 000000001B44: BF890BF7
	v_lshrrev_b64 v[5:6], s5, v[4:5]                           // 000000001B48: D73D0005 00020805
	s_waitcnt vmcnt(1)                                         // 000000001B50: BF8907F7
	v_lshrrev_b64 v[6:7], s5, v[0:1]                           // 000000001B54: D73D0006 00020005
	s_waitcnt vmcnt(0)                                         // 000000001B5C: BF8903F7
	v_lshrrev_b64 v[7:8], s5, v[2:3]                           // 000000001B60: D73D0007 00020405
	s_getpc_b64 s[0:1]                                         // 000000001B68: BE804700
	s_add_u32 s0, s0, 0x498                                    // 000000001B6C: 8000FF00 00000498
	s_addc_u32 s1, s1, 0                                       // 000000001B74: 8201FF01 00000000
	v_mov_b32_e32 v1, v6                                       // 000000001B7C: 7E020306
	v_mov_b32_e32 v3, v7                                       // 000000001B80: 7E060307
	s_swappc_b64 s[30:31], s[0:1]                              // 000000001B84: BE9E4900
	scratch_store_b64 off, v[0:1], s33 offset:104              // 000000001B88: DC6D0068 00210000
	scratch_load_b64 v[2:3], off, s33 offset:88                // 000000001B90: DC550058 02210000
	scratch_load_b64 v[4:5], off, s33 offset:96                // 000000001B98: DC550060 04210000
	s_waitcnt vmcnt(1)                                         // 000000001BA0: BF8907F7
	global_load_b64 v[0:1], v[2:3], off offset:8               // 000000001BA4: DC560008 007C0002
	global_load_b64 v[2:3], v[2:3], off offset:40              // 000000001BAC: DC560028 027C0002
	s_waitcnt vmcnt(2)                                         // 000000001BB4: BF890BF7
	v_lshrrev_b64 v[5:6], s5, v[4:5]                           // 000000001BB8: D73D0005 00020805
	s_waitcnt vmcnt(1)                                         // 000000001BC0: BF8907F7
	v_lshrrev_b64 v[6:7], s5, v[0:1]                           // 000000001BC4: D73D0006 00020005
	s_waitcnt vmcnt(0)                                         // 000000001BCC: BF8903F7
	v_lshrrev_b64 v[7:8], s5, v[2:3]                           // 000000001BD0: D73D0007 00020405
	s_getpc_b64 s[0:1]                                         // 000000001BD8: BE804700
	s_add_u32 s0, s0, 0x458                                    // 000000001BDC: 8000FF00 00000458
	s_addc_u32 s1, s1, 0                                       // 000000001BE4: 8201FF01 00000000
	v_mov_b32_e32 v1, v6                                       // 000000001BEC: 7E020306
	v_mov_b32_e32 v3, v7                                       // 000000001BF0: 7E060307
	s_swappc_b64 s[30:31], s[0:1]                              // 000000001BF4: BE9E4900
	scratch_store_b64 off, v[0:1], s33 offset:112              // 000000001BF8: DC6D0070 00210000
	scratch_load_b64 v[0:1], off, s33 offset:104               // 000000001C00: DC550068 00210000
	scratch_load_b64 v[2:3], off, s33 offset:112               // 000000001C08: DC550070 02210000
	scratch_load_b32 v32, off, s33 offset:8                    // 000000001C10: DC510008 20210000
	scratch_load_b64 v[5:6], off, s33 offset:16                // 000000001C18: DC550010 05210000
	scratch_load_b64 v[7:8], off, s33 offset:24                // 000000001C20: DC550018 07210000
	scratch_load_b64 v[9:10], off, s33 offset:32               // 000000001C28: DC550020 09210000
	scratch_load_b64 v[11:12], off, s33 offset:40              // 000000001C30: DC550028 0B210000
	scratch_load_b64 v[13:14], off, s33 offset:48              // 000000001C38: DC550030 0D210000
	scratch_load_b64 v[15:16], off, s33 offset:56              // 000000001C40: DC550038 0F210000
	scratch_load_b64 v[17:18], off, s33 offset:64              // 000000001C48: DC550040 11210000
	scratch_load_b64 v[19:20], off, s33 offset:72              // 000000001C50: DC550048 13210000
	scratch_load_b32 v33, off, s33 offset:80                   // 000000001C58: DC510050 21210000
	scratch_load_b32 v22, off, s33 offset:84                   // 000000001C60: DC510054 16210000
	s_waitcnt vmcnt(12)                                        // 000000001C68: BF8933F7
	v_lshrrev_b64 v[30:31], s5, v[0:1]                         // 000000001C6C: D73D001E 00020005
	s_waitcnt vmcnt(11)                                        // 000000001C74: BF892FF7
	v_lshrrev_b64 v[3:4], s5, v[2:3]                           // 000000001C78: D73D0003 00020405
	s_waitcnt vmcnt(9)                                         // 000000001C80: BF8927F7
	v_lshrrev_b64 v[34:35], s5, v[5:6]                         // 000000001C84: D73D0022 00020A05
	s_waitcnt vmcnt(8)                                         // 000000001C8C: BF8923F7
	v_lshrrev_b64 v[23:24], s5, v[7:8]                         // 000000001C90: D73D0017 00020E05
	s_waitcnt vmcnt(7)                                         // 000000001C98: BF891FF7
	v_lshrrev_b64 v[24:25], s5, v[9:10]                        // 000000001C9C: D73D0018 00021205
	s_waitcnt vmcnt(6)                                         // 000000001CA4: BF891BF7
	v_lshrrev_b64 v[25:26], s5, v[11:12]                       // 000000001CA8: D73D0019 00021605
	s_waitcnt vmcnt(5)                                         // 000000001CB0: BF8917F7
	v_lshrrev_b64 v[26:27], s5, v[13:14]                       // 000000001CB4: D73D001A 00021A05
	s_waitcnt vmcnt(4)                                         // 000000001CBC: BF8913F7
	v_lshrrev_b64 v[27:28], s5, v[15:16]                       // 000000001CC0: D73D001B 00021E05
	s_waitcnt vmcnt(3)                                         // 000000001CC8: BF890FF7
	v_lshrrev_b64 v[28:29], s5, v[17:18]                       // 000000001CCC: D73D001C 00022205
	s_waitcnt vmcnt(2)                                         // 000000001CD4: BF890BF7
	v_lshrrev_b64 v[20:21], s5, v[19:20]                       // 000000001CD8: D73D0014 00022605
	s_getpc_b64 s[0:1]                                         // 000000001CE0: BE804700
	s_add_u32 s0, s0, 0x37c                                    // 000000001CE4: 8000FF00 0000037C
	s_addc_u32 s1, s1, 0                                       // 000000001CEC: 8201FF01 00000000
	v_mov_b32_e32 v1, v30                                      // 000000001CF4: 7E02031E
	v_mov_b32_e32 v4, v32                                      // 000000001CF8: 7E080320
	v_mov_b32_e32 v6, v34                                      // 000000001CFC: 7E0C0322
	v_mov_b32_e32 v8, v23                                      // 000000001D00: 7E100317
	v_mov_b32_e32 v10, v24                                     // 000000001D04: 7E140318
	v_mov_b32_e32 v12, v25                                     // 000000001D08: 7E180319
	v_mov_b32_e32 v14, v26                                     // 000000001D0C: 7E1C031A
	v_mov_b32_e32 v16, v27                                     // 000000001D10: 7E20031B
	v_mov_b32_e32 v18, v28                                     // 000000001D14: 7E24031C
	s_waitcnt vmcnt(1)                                         // 000000001D18: BF8907F7
	v_mov_b32_e32 v21, v33                                     // 000000001D1C: 7E2A0321
	s_swappc_b64 s[30:31], s[0:1]                              // 000000001D20: BE9E4900
	scratch_load_b64 v[0:1], off, s33 offset:88                // 000000001D24: DC550058 00210000
	scratch_load_b64 v[2:3], off, s33 offset:96                // 000000001D2C: DC550060 02210000
	scratch_load_b32 v7, off, s33 offset:80                    // 000000001D34: DC510050 07210000
	scratch_load_b32 v5, off, s33 offset:84                    // 000000001D3C: DC510054 05210000
	s_waitcnt vmcnt(3)                                         // 000000001D44: BF890FF7
	v_lshrrev_b64 v[8:9], s5, v[0:1]                           // 000000001D48: D73D0008 00020005
	s_waitcnt vmcnt(2)                                         // 000000001D50: BF890BF7
	v_lshrrev_b64 v[3:4], s5, v[2:3]                           // 000000001D54: D73D0003 00020405
	s_getpc_b64 s[0:1]                                         // 000000001D5C: BE804700
	s_add_u32 s0, s0, 0x37c                                    // 000000001D60: 8000FF00 0000037C
	s_addc_u32 s1, s1, 0                                       // 000000001D68: 8201FF01 00000000
	v_mov_b32_e32 v1, v8                                       // 000000001D70: 7E020308
	s_waitcnt vmcnt(1)                                         // 000000001D74: BF8907F7
	v_mov_b32_e32 v4, v7                                       // 000000001D78: 7E080307
	s_swappc_b64 s[30:31], s[0:1]                              // 000000001D7C: BE9E4900
	scratch_load_b64 v[0:1], off, s33 offset:104               // 000000001D80: DC550068 00210000
	scratch_load_b64 v[2:3], off, s33 offset:112               // 000000001D88: DC550070 02210000
	scratch_load_b32 v7, off, s33 offset:80                    // 000000001D90: DC510050 07210000
	scratch_load_b32 v5, off, s33 offset:84                    // 000000001D98: DC510054 05210000
	s_waitcnt vmcnt(3)                                         // 000000001DA0: BF890FF7
	v_lshrrev_b64 v[8:9], s5, v[0:1]                           // 000000001DA4: D73D0008 00020005
	s_waitcnt vmcnt(2)                                         // 000000001DAC: BF890BF7
	v_lshrrev_b64 v[3:4], s5, v[2:3]                           // 000000001DB0: D73D0003 00020405
	s_getpc_b64 s[0:1]                                         // 000000001DB8: BE804700
	s_add_u32 s0, s0, 0x45c                                    // 000000001DBC: 8000FF00 0000045C
	s_addc_u32 s1, s1, 0                                       // 000000001DC4: 8201FF01 00000000
	v_mov_b32_e32 v1, v8                                       // 000000001DCC: 7E020308
	s_waitcnt vmcnt(1)                                         // 000000001DD0: BF8907F7
	v_mov_b32_e32 v4, v7                                       // 000000001DD4: 7E080307
	s_swappc_b64 s[30:31], s[0:1]                              // 000000001DD8: BE9E4900
	scratch_store_b128 off, v[0:3], s33 offset:128             // 000000001DDC: DC750080 00210000
	scratch_load_b64 v[0:1], off, s33 offset:88                // 000000001DE4: DC550058 00210000
	scratch_load_b64 v[2:3], off, s33 offset:96                // 000000001DEC: DC550060 02210000
	scratch_load_b32 v7, off, s33 offset:80                    // 000000001DF4: DC510050 07210000
	scratch_load_b32 v5, off, s33 offset:84                    // 000000001DFC: DC510054 05210000
	s_waitcnt vmcnt(3)                                         // 000000001E04: BF890FF7
	v_lshrrev_b64 v[8:9], s5, v[0:1]                           // 000000001E08: D73D0008 00020005
	s_waitcnt vmcnt(2)                                         // 000000001E10: BF890BF7
	v_lshrrev_b64 v[3:4], s5, v[2:3]                           // 000000001E14: D73D0003 00020405
	s_getpc_b64 s[0:1]                                         // 000000001E1C: BE804700
	s_add_u32 s0, s0, 0x4c8                                    // 000000001E20: 8000FF00 000004C8
	s_addc_u32 s1, s1, 0                                       // 000000001E28: 8201FF01 00000000
	v_mov_b32_e32 v1, v8                                       // 000000001E30: 7E020308
	s_waitcnt vmcnt(1)                                         // 000000001E34: BF8907F7
	v_mov_b32_e32 v4, v7                                       // 000000001E38: 7E080307
	s_swappc_b64 s[30:31], s[0:1]                              // 000000001E3C: BE9E4900
	scratch_load_b128 v[0:3], off, s33 offset:128              // 000000001E40: DC5D0080 00210000
	v_readlane_b32 s31, v36, 1                                 // 000000001E48: D760001F 00010324
	v_readlane_b32 s30, v36, 0                                 // 000000001E50: D760001E 00010124
	s_xor_saveexec_b32 s0, -1                                  // 000000001E58: BE8024C1
	scratch_load_b32 v36, off, s33 offset:144                  // 000000001E5C: DC510090 24210000
	s_mov_b32 exec_lo, s0                                      // 000000001E64: BEFE0000
	s_add_i32 s32, s32, 0xffffff60                             // 000000001E68: 8120FF20 FFFFFF60
	s_mov_b32 s33, s6                                          // 000000001E70: BEA10006
	s_waitcnt vmcnt(0)                                         // 000000001E74: BF8903F7
	s_setpc_b64 s[30:31]                                       // 000000001E78: BE80481E

0000000000001e7c <__unnamed_1>:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)                    // 000000001E7C: BF890000
	s_setpc_b64 s[30:31]                                       // 000000001E80: BE80481E

0000000000001e84 <__unnamed_2>:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)                    // 000000001E84: BF890000
	v_mov_b32_e32 v4, 0                                        // 000000001E88: 7E080280
	v_mov_b32_e32 v5, 0                                        // 000000001E8C: 7E0A0280
	s_mov_b32 s0, exec_lo                                      // 000000001E90: BE80007E
	v_cmpx_eq_u32_e64 v2, v3                                   // 000000001E94: D4CA007E 00020702
	s_cbranch_execz 82                                         // 000000001E9C: BFA50052 <__unnamed_2+0x164>
	global_load_b64 v[6:7], v[0:1], off offset:24 glc          // 000000001EA0: DC564018 067C0000
	s_waitcnt vmcnt(0)                                         // 000000001EA8: BF8903F7
	buffer_gl1_inv                                             // 000000001EAC: E0B00000 00000000
	buffer_gl0_inv                                             // 000000001EB4: E0AC0000 00000000
	s_clause 0x1                                               // 000000001EBC: BF850001
	global_load_b64 v[2:3], v[0:1], off offset:40              // 000000001EC0: DC560028 027C0000
	global_load_b64 v[4:5], v[0:1], off                        // 000000001EC8: DC560000 047C0000
	s_mov_b32 s1, exec_lo                                      // 000000001ED0: BE81007E
	s_waitcnt vmcnt(1)                                         // 000000001ED4: BF8907F7
	v_and_b32_e32 v2, v2, v6                                   // 000000001ED8: 36040D02
	s_waitcnt vmcnt(0)                                         // 000000001EDC: BF8903F7
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)// 000000001EE0: BF870091
	v_mad_u64_u32 v[8:9], null, v2, 24, v[4:5]                 // 000000001EE4: D6FE7C08 04113102
	v_dual_mov_b32 v2, v9 :: v_dual_and_b32 v5, v3, v7         // 000000001EEC: CA240109 02040F03
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)// 000000001EF4: BF870091
	v_mad_u64_u32 v[3:4], null, v5, 24, v[2:3]                 // 000000001EF8: D6FE7C03 04093105
	v_mov_b32_e32 v9, v3                                       // 000000001F00: 7E120303
	global_load_b64 v[4:5], v[8:9], off glc                    // 000000001F04: DC564000 047C0008
	s_waitcnt vmcnt(0)                                         // 000000001F0C: BF8903F7
	global_atomic_cmpswap_b64 v[4:5], v[0:1], v[4:7], off offset:24 glc// 000000001F10: DD0A4018 047C0400
	s_waitcnt vmcnt(0)                                         // 000000001F18: BF8903F7
	buffer_gl1_inv                                             // 000000001F1C: E0B00000 00000000
	buffer_gl0_inv                                             // 000000001F24: E0AC0000 00000000
	v_cmpx_ne_u64_e64 v[4:5], v[6:7]                           // 000000001F2C: D4DD007E 00020D04
	s_cbranch_execz 42                                         // 000000001F34: BFA5002A <__unnamed_2+0x15c>
	s_mov_b32 s2, 0                                            // 000000001F38: BE820080
	s_nop 0                                                    // 000000001F3C: BF800000
	s_sleep 1                                                  // 000000001F40: BF830001
	s_clause 0x1                                               // 000000001F44: BF850001
	global_load_b64 v[2:3], v[0:1], off offset:40              // 000000001F48: DC560028 027C0000
	global_load_b64 v[8:9], v[0:1], off                        // 000000001F50: DC560000 087C0000
	v_dual_mov_b32 v7, v5 :: v_dual_mov_b32 v6, v4             // 000000001F58: CA100105 07060104
	s_waitcnt vmcnt(1)                                         // 000000001F60: BF8907F7
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(VALU_DEP_1)// 000000001F64: BF8700A1
	v_and_b32_e32 v2, v2, v6                                   // 000000001F68: 36040D02
	s_waitcnt vmcnt(0)                                         // 000000001F6C: BF8903F7
	v_mad_u64_u32 v[4:5], null, v2, 24, v[8:9]                 // 000000001F70: D6FE7C04 04213102
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)// 000000001F78: BF870091
	v_dual_mov_b32 v2, v5 :: v_dual_and_b32 v3, v3, v7         // 000000001F7C: CA240105 02020F03
	v_mad_u64_u32 v[8:9], null, v3, 24, v[2:3]                 // 000000001F84: D6FE7C08 04093103
	s_delay_alu instid0(VALU_DEP_1)                            // 000000001F8C: BF870001
	v_mov_b32_e32 v5, v8                                       // 000000001F90: 7E0A0308
	global_load_b64 v[4:5], v[4:5], off glc                    // 000000001F94: DC564000 047C0004
	s_waitcnt vmcnt(0)                                         // 000000001F9C: BF8903F7
	global_atomic_cmpswap_b64 v[4:5], v[0:1], v[4:7], off offset:24 glc// 000000001FA0: DD0A4018 047C0400
	s_waitcnt vmcnt(0)                                         // 000000001FA8: BF8903F7
	buffer_gl1_inv                                             // 000000001FAC: E0B00000 00000000
	buffer_gl0_inv                                             // 000000001FB4: E0AC0000 00000000
	v_cmp_eq_u64_e32 vcc_lo, v[4:5], v[6:7]                    // 000000001FBC: 7CB40D04
	s_or_b32 s2, vcc_lo, s2                                    // 000000001FC0: 8C02026A
	s_and_not1_b32 s3, s3, exec_lo                             // 000000001FC4: 91037E03
	s_and_b32 s4, vcc_lo, exec_lo                              // 000000001FC8: 8B047E6A
	s_delay_alu instid0(SALU_CYCLE_1)                          // 000000001FCC: BF870009
	s_or_b32 s3, s3, s4                                        // 000000001FD0: 8C030403
	s_and_not1_b32 exec_lo, exec_lo, s2                        // 000000001FD4: 917E027E
	s_cbranch_execnz 65497                                     // 000000001FD8: BFA6FFD9 <__unnamed_2+0xbc>
	s_or_b32 exec_lo, exec_lo, s2                              // 000000001FDC: 8C7E027E
	s_delay_alu instid0(SALU_CYCLE_1)                          // 000000001FE0: BF870009
	s_or_b32 exec_lo, exec_lo, s1                              // 000000001FE4: 8C7E017E
	s_delay_alu instid0(SALU_CYCLE_1) | instskip(SKIP_2) | instid1(VALU_DEP_1)// 000000001FE8: BF8700B9
	s_or_b32 exec_lo, exec_lo, s0                              // 000000001FEC: 8C7E007E
	v_readfirstlane_b32 s0, v4                                 // 000000001FF0: 7E000504
	v_readfirstlane_b32 s1, v5                                 // 000000001FF4: 7E020505
	v_dual_mov_b32 v0, s0 :: v_dual_mov_b32 v1, s1             // 000000001FF8: CA100000 00000001
	s_setpc_b64 s[30:31]                                       // 000000002000: BE80481E

0000000000002004 <__unnamed_3>:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)                    // 000000002004: BF890000
	v_and_b32_e32 v2, v4, v2                                   // 000000002008: 36040504
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)// 00000000200C: BF870091
	v_mad_u64_u32 v[6:7], null, v2, 24, v[0:1]                 // 000000002010: D6FE7C06 04013102
	v_dual_mov_b32 v0, v7 :: v_dual_and_b32 v3, v5, v3         // 000000002018: CA240107 00020705
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_3)// 000000002020: BF870191
	v_mad_u64_u32 v[1:2], null, v3, 24, v[0:1]                 // 000000002024: D6FE7C01 04013103
	v_mov_b32_e32 v0, v6                                       // 00000000202C: 7E000306
	s_setpc_b64 s[30:31]                                       // 000000002030: BE80481E

0000000000002034 <__unnamed_4>:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)                    // 000000002034: BF890000
	v_and_b32_e32 v3, v5, v3                                   // 000000002038: 36060705
	v_and_b32_e32 v2, v4, v2                                   // 00000000203C: 36040504
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)// 000000002040: BF870091
	v_lshlrev_b64 v[2:3], 12, v[2:3]                           // 000000002044: D73C0002 0002048C
	v_add_co_u32 v0, vcc_lo, v0, v2                            // 00000000204C: D7006A00 00020500
	s_delay_alu instid0(VALU_DEP_2)                            // 000000002054: BF870002
	v_add_co_ci_u32_e32 v1, vcc_lo, v1, v3, vcc_lo             // 000000002058: 40020701
	s_setpc_b64 s[30:31]                                       // 00000000205C: BE80481E

0000000000002060 <__unnamed_5>:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)                    // 000000002060: BF890000
	v_mov_b32_e32 v24, v4                                      // 000000002064: 7E300304
	s_mov_b64 s[0:1], exec                                     // 000000002068: BE80017E
	s_mov_b32 s2, exec_lo                                      // 00000000206C: BE82007E
	v_cmpx_eq_u32_e64 v21, v22                                 // 000000002070: D4CA007E 00022D15
	s_cbranch_execz 5                                          // 000000002078: BFA50005 <__unnamed_5+0x30>
	v_dual_mov_b32 v23, s1 :: v_dual_mov_b32 v22, s0           // 00000000207C: CA100001 17160000
	v_mov_b32_e32 v25, 1                                       // 000000002084: 7E320281
	global_store_b128 v[0:1], v[22:25], off offset:8           // 000000002088: DC760008 007C1600
	s_or_b32 exec_lo, exec_lo, s2                              // 000000002090: 8C7E027E
	v_mov_b32_e32 v22, 0                                       // 000000002094: 7E2C0280
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)// 000000002098: BF870091
	v_lshlrev_b64 v[0:1], 6, v[21:22]                          // 00000000209C: D73C0000 00022A86
	v_add_co_u32 v0, vcc_lo, v2, v0                            // 0000000020A4: D7006A00 00020102
	s_delay_alu instid0(VALU_DEP_2)                            // 0000000020AC: BF870002
	v_add_co_ci_u32_e32 v1, vcc_lo, v3, v1, vcc_lo             // 0000000020B0: 40020303
	s_clause 0x3                                               // 0000000020B4: BF850003
	global_store_b128 v[0:1], v[5:8], off                      // 0000000020B8: DC760000 007C0500
	global_store_b128 v[0:1], v[9:12], off offset:16           // 0000000020C0: DC760010 007C0900
	global_store_b128 v[0:1], v[13:16], off offset:32          // 0000000020C8: DC760020 007C0D00
	global_store_b128 v[0:1], v[17:20], off offset:48          // 0000000020D0: DC760030 007C1100
	s_setpc_b64 s[30:31]                                       // 0000000020D8: BE80481E

00000000000020dc <__unnamed_6>:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)                    // 0000000020DC: BF890000
	s_mov_b32 s0, exec_lo                                      // 0000000020E0: BE80007E
	v_cmpx_eq_u32_e64 v4, v5                                   // 0000000020E4: D4CA007E 00020B04
	s_cbranch_execz 71                                         // 0000000020EC: BFA50047 <__unnamed_6+0x130>
	s_clause 0x2                                               // 0000000020F0: BF850002
	global_load_b64 v[8:9], v[0:1], off offset:32 glc          // 0000000020F4: DC564020 087C0000
	global_load_b64 v[4:5], v[0:1], off offset:40              // 0000000020FC: DC560028 047C0000
	global_load_b64 v[10:11], v[0:1], off                      // 000000002104: DC560000 0A7C0000
	s_mov_b32 s1, exec_lo                                      // 00000000210C: BE81007E
	s_waitcnt vmcnt(1)                                         // 000000002110: BF8907F7
	v_and_b32_e32 v4, v4, v2                                   // 000000002114: 36080504
	s_waitcnt vmcnt(0)                                         // 000000002118: BF8903F7
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)// 00000000211C: BF870091
	v_mad_u64_u32 v[6:7], null, v4, 24, v[10:11]               // 000000002120: D6FE7C06 04293104
	v_dual_mov_b32 v4, v7 :: v_dual_and_b32 v5, v5, v3         // 000000002128: CA240107 04040705
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(VALU_DEP_2)// 000000002130: BF870121
	v_mad_u64_u32 v[10:11], null, v5, 24, v[4:5]               // 000000002134: D6FE7C0A 04113105
	v_dual_mov_b32 v4, v8 :: v_dual_mov_b32 v5, v9             // 00000000213C: CA100108 04040109
	v_mov_b32_e32 v7, v10                                      // 000000002144: 7E0E030A
	global_store_b64 v[6:7], v[8:9], off                       // 000000002148: DC6E0000 007C0806
	s_waitcnt_vscnt null, 0x0                                  // 000000002150: BC7C0000
	global_atomic_cmpswap_b64 v[4:5], v[0:1], v[2:5], off offset:32 glc// 000000002154: DD0A4020 047C0200
	s_waitcnt vmcnt(0)                                         // 00000000215C: BF8903F7
	v_cmpx_ne_u64_e64 v[4:5], v[8:9]                           // 000000002160: D4DD007E 00021104
	s_cbranch_execz 15                                         // 000000002168: BFA5000F <__unnamed_6+0xcc>
	s_mov_b32 s2, 0                                            // 00000000216C: BE820080
	s_sleep 1                                                  // 000000002170: BF830001
	global_store_b64 v[6:7], v[4:5], off                       // 000000002174: DC6E0000 007C0406
	s_waitcnt_vscnt null, 0x0                                  // 00000000217C: BC7C0000
	global_atomic_cmpswap_b64 v[8:9], v[0:1], v[2:5], off offset:32 glc// 000000002180: DD0A4020 087C0200
	s_waitcnt vmcnt(0)                                         // 000000002188: BF8903F7
	v_cmp_eq_u64_e32 vcc_lo, v[8:9], v[4:5]                    // 00000000218C: 7CB40908
	v_dual_mov_b32 v4, v8 :: v_dual_mov_b32 v5, v9             // 000000002190: CA100108 04040109
	s_or_b32 s2, vcc_lo, s2                                    // 000000002198: 8C02026A
	s_delay_alu instid0(SALU_CYCLE_1)                          // 00000000219C: BF870009
	s_and_not1_b32 exec_lo, exec_lo, s2                        // 0000000021A0: 917E027E
	s_cbranch_execnz 65522                                     // 0000000021A4: BFA6FFF2 <__unnamed_6+0x94>
	s_or_b32 exec_lo, exec_lo, s1                              // 0000000021A8: 8C7E017E
	global_load_b64 v[2:3], v[0:1], off offset:16              // 0000000021AC: DC560010 027C0000
	v_mov_b32_e32 v0, 1                                        // 0000000021B4: 7E000281
	v_mov_b32_e32 v1, 0                                        // 0000000021B8: 7E020280
	s_waitcnt vmcnt(0)                                         // 0000000021BC: BF8903F7
	global_atomic_add_u64 v[2:3], v[0:1], off offset:8         // 0000000021C0: DD0E0008 007C0002
	global_load_b64 v[0:1], v[2:3], off offset:16              // 0000000021C8: DC560010 007C0002
	s_waitcnt vmcnt(0)                                         // 0000000021D0: BF8903F7
	v_cmp_ne_u64_e32 vcc_lo, 0, v[0:1]                         // 0000000021D4: 7CBA0080
	s_and_b32 exec_lo, exec_lo, vcc_lo                         // 0000000021D8: 8B7E6A7E
	s_cbranch_execz 11                                         // 0000000021DC: BFA5000B <__unnamed_6+0x130>
	global_load_b32 v2, v[2:3], off offset:24                  // 0000000021E0: DC520018 027C0002
	v_mov_b32_e32 v3, 0                                        // 0000000021E8: 7E060280
	s_waitcnt vmcnt(0)                                         // 0000000021EC: BF8903F7
	v_readfirstlane_b32 s1, v2                                 // 0000000021F0: 7E020502
	s_waitcnt_vscnt null, 0x0                                  // 0000000021F4: BC7C0000
	global_store_b64 v[0:1], v[2:3], off                       // 0000000021F8: DC6E0000 007C0200
	s_and_b32 m0, s1, 0xff                                     // 000000002200: 8B7DFF01 000000FF
	s_sendmsg sendmsg(MSG_INTERRUPT)                           // 000000002208: BFB60001
	s_or_b32 exec_lo, exec_lo, s0                              // 00000000220C: 8C7E007E
	s_waitcnt lgkmcnt(0)                                       // 000000002210: BF89FC07
	s_setpc_b64 s[30:31]                                       // 000000002214: BE80481E

0000000000002218 <__unnamed_7>:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)                    // 000000002218: BF890000
	v_cmp_eq_u32_e64 s0, v4, v5                                // 00000000221C: D44A0000 00020B04
	s_branch 23                                                // 000000002224: BFA00017 <__unnamed_7+0x6c>
	s_nop 0                                                    // 000000002228: BF800000
	s_nop 0                                                    // 00000000222C: BF800000
	s_nop 0                                                    // 000000002230: BF800000
	s_nop 0                                                    // 000000002234: BF800000
	s_nop 0                                                    // 000000002238: BF800000
	s_nop 0                                                    // 00000000223C: BF800000
	s_or_b32 exec_lo, exec_lo, s1                              // 000000002240: 8C7E017E
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)// 000000002244: BF870091
	v_readfirstlane_b32 s1, v5                                 // 000000002248: 7E020505
	s_cmp_eq_u32 s1, 0                                         // 00000000224C: BF068001
	s_cbranch_scc1 11                                          // 000000002250: BFA2000B <__unnamed_7+0x68>
	s_sleep 1                                                  // 000000002254: BF830001
	s_cbranch_execnz 10                                        // 000000002258: BFA6000A <__unnamed_7+0x6c>
	s_branch 22                                                // 00000000225C: BFA00016 <__unnamed_7+0xa0>
	s_nop 0                                                    // 000000002260: BF800000
	s_nop 0                                                    // 000000002264: BF800000
	s_nop 0                                                    // 000000002268: BF800000
	s_nop 0                                                    // 00000000226C: BF800000
	s_nop 0                                                    // 000000002270: BF800000
	s_nop 0                                                    // 000000002274: BF800000
	s_nop 0                                                    // 000000002278: BF800000
	s_nop 0                                                    // 00000000227C: BF800000
	s_branch 13                                                // 000000002280: BFA0000D <__unnamed_7+0xa0>
	v_mov_b32_e32 v5, 1                                        // 000000002284: 7E0A0281
	s_delay_alu instid0(VALU_DEP_2)                            // 000000002288: BF870002
	s_and_saveexec_b32 s1, s0                                  // 00000000228C: BE812000
	s_cbranch_execz 65515                                      // 000000002290: BFA5FFEB <__unnamed_7+0x28>
	global_load_b32 v5, v[0:1], off offset:20 glc              // 000000002294: DC524014 057C0000
	s_waitcnt vmcnt(0)                                         // 00000000229C: BF8903F7
	buffer_gl1_inv                                             // 0000000022A0: E0B00000 00000000
	buffer_gl0_inv                                             // 0000000022A8: E0AC0000 00000000
	v_and_b32_e32 v5, 1, v5                                    // 0000000022B0: 360A0A81
	s_branch 65506                                             // 0000000022B4: BFA0FFE2 <__unnamed_7+0x28>
	v_mov_b32_e32 v5, 0                                        // 0000000022B8: 7E0A0280
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)// 0000000022BC: BF870091
	v_lshlrev_b64 v[0:1], 6, v[4:5]                            // 0000000022C0: D73C0000 00020886
	v_add_co_u32 v0, vcc_lo, v2, v0                            // 0000000022C8: D7006A00 00020102
	s_delay_alu instid0(VALU_DEP_2)                            // 0000000022D0: BF870002
	v_add_co_ci_u32_e32 v1, vcc_lo, v3, v1, vcc_lo             // 0000000022D4: 40020303
	global_load_b128 v[0:3], v[0:1], off                       // 0000000022D8: DC5E0000 007C0000
	s_waitcnt vmcnt(0)                                         // 0000000022E0: BF8903F7
	s_setpc_b64 s[30:31]                                       // 0000000022E4: BE80481E

00000000000022e8 <__unnamed_8>:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)                    // 0000000022E8: BF890000
	s_mov_b32 s0, exec_lo                                      // 0000000022EC: BE80007E
	v_cmpx_eq_u32_e64 v4, v5                                   // 0000000022F0: D4CA007E 00020B04
	s_cbranch_execz 57                                         // 0000000022F8: BFA50039 <__unnamed_8+0xf8>
	s_clause 0x2                                               // 0000000022FC: BF850002
	global_load_b64 v[4:5], v[0:1], off offset:40              // 000000002300: DC560028 047C0000
	global_load_b64 v[8:9], v[0:1], off offset:24 glc          // 000000002308: DC564018 087C0000
	global_load_b64 v[12:13], v[0:1], off                      // 000000002310: DC560000 0C7C0000
	s_waitcnt vmcnt(2)                                         // 000000002318: BF890BF7
	v_add_co_u32 v6, vcc_lo, v4, 1                             // 00000000231C: D7006A06 00010304
	v_add_co_ci_u32_e32 v7, vcc_lo, 0, v5, vcc_lo              // 000000002324: 400E0A80
	s_delay_alu instid0(VALU_DEP_2) | instskip(NEXT) | instid1(VALU_DEP_2)// 000000002328: BF870112
	v_add_co_u32 v2, vcc_lo, v6, v2                            // 00000000232C: D7006A02 00020506
	v_add_co_ci_u32_e32 v3, vcc_lo, v7, v3, vcc_lo             // 000000002334: 40060707
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(VALU_DEP_1)// 000000002338: BF8700A1
	v_cmp_eq_u64_e32 vcc_lo, 0, v[2:3]                         // 00000000233C: 7CB40480
	v_dual_cndmask_b32 v7, v3, v7 :: v_dual_cndmask_b32 v6, v2, v6// 000000002340: CA520F03 07060D02
	v_and_b32_e32 v5, v7, v5                                   // 000000002348: 360A0B07
	s_delay_alu instid0(VALU_DEP_2) | instskip(SKIP_1) | instid1(VALU_DEP_1)// 00000000234C: BF8700A2
	v_and_b32_e32 v2, v6, v4                                   // 000000002350: 36040906
	s_waitcnt vmcnt(0)                                         // 000000002354: BF8903F7
	v_mad_u64_u32 v[10:11], null, v2, 24, v[12:13]             // 000000002358: D6FE7C0A 04313102
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)// 000000002360: BF870091
	v_mov_b32_e32 v2, v11                                      // 000000002364: 7E04030B
	v_mad_u64_u32 v[3:4], null, v5, 24, v[2:3]                 // 000000002368: D6FE7C03 04093105
	s_delay_alu instid0(VALU_DEP_1)                            // 000000002370: BF870001
	v_mov_b32_e32 v11, v3                                      // 000000002374: 7E160303
	global_store_b64 v[10:11], v[8:9], off                     // 000000002378: DC6E0000 007C080A
	s_waitcnt_vscnt null, 0x0                                  // 000000002380: BC7C0000
	global_atomic_cmpswap_b64 v[4:5], v[0:1], v[6:9], off offset:24 glc// 000000002384: DD0A4018 047C0600
	s_waitcnt vmcnt(0)                                         // 00000000238C: BF8903F7
	v_cmp_ne_u64_e32 vcc_lo, v[4:5], v[8:9]                    // 000000002390: 7CBA1104
	s_and_b32 exec_lo, exec_lo, vcc_lo                         // 000000002394: 8B7E6A7E
	s_cbranch_execz 17                                         // 000000002398: BFA50011 <__unnamed_8+0xf8>
	v_dual_mov_b32 v3, v7 :: v_dual_mov_b32 v2, v6             // 00000000239C: CA100107 03020106
	s_mov_b32 s1, 0                                            // 0000000023A4: BE810080
	s_sleep 1                                                  // 0000000023A8: BF830001
	global_store_b64 v[10:11], v[4:5], off                     // 0000000023AC: DC6E0000 007C040A
	s_waitcnt_vscnt null, 0x0                                  // 0000000023B4: BC7C0000
	global_atomic_cmpswap_b64 v[6:7], v[0:1], v[2:5], off offset:24 glc// 0000000023B8: DD0A4018 067C0200
	s_waitcnt vmcnt(0)                                         // 0000000023C0: BF8903F7
	v_cmp_eq_u64_e32 vcc_lo, v[6:7], v[4:5]                    // 0000000023C4: 7CB40906
	v_dual_mov_b32 v4, v6 :: v_dual_mov_b32 v5, v7             // 0000000023C8: CA100106 04040107
	s_or_b32 s1, vcc_lo, s1                                    // 0000000023D0: 8C01016A
	s_delay_alu instid0(SALU_CYCLE_1)                          // 0000000023D4: BF870009
	s_and_not1_b32 exec_lo, exec_lo, s1                        // 0000000023D8: 917E017E
	s_cbranch_execnz 65522                                     // 0000000023DC: BFA6FFF2 <__unnamed_8+0xc0>
	s_or_b32 exec_lo, exec_lo, s0                              // 0000000023E0: 8C7E007E
	s_setpc_b64 s[30:31]                                       // 0000000023E4: BE80481E
