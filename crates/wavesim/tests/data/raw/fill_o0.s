0000000000001900 <fill>:
	s_mov_b32 s33, 0                                           // 000000001900: BEA10080
	s_mov_b32 s32, 48                                          // 000000001904: BEA000B0
	v_writelane_b32 v1, s15, 0                                 // 000000001908: D7610001 0001000F
	s_mov_b32 s6, s14                                          // 000000001910: BE86000E
	v_readlane_b32 s14, v1, 0                                  // 000000001914: D760000E 00010101
	v_writelane_b32 v1, s6, 1                                  // 00000000191C: D7610001 00010206
	s_mov_b32 s12, s13                                         // 000000001924: BE8C000D
	v_readlane_b32 s13, v1, 1                                  // 000000001928: D760000D 00010301
	v_writelane_b32 v1, s12, 2                                 // 000000001930: D7610001 0001040C
	s_mov_b64 s[10:11], s[4:5]                                 // 000000001938: BE8A0104
	v_writelane_b32 v1, s10, 3                                 // 00000000193C: D7610001 0001060A
	v_writelane_b32 v1, s11, 4                                 // 000000001944: D7610001 0001080B
	v_writelane_b32 v1, s2, 5                                  // 00000000194C: D7610001 00010A02
	v_writelane_b32 v1, s3, 6                                  // 000000001954: D7610001 00010C03
	s_mov_b64 s[4:5], s[0:1]                                   // 00000000195C: BE840100
	v_readlane_b32 s0, v1, 5                                   // 000000001960: D7600000 00010B01
	v_readlane_b32 s1, v1, 6                                   // 000000001968: D7600001 00010D01
	v_writelane_b32 v1, s4, 7                                  // 000000001970: D7610001 00010E04
	v_writelane_b32 v1, s5, 8                                  // 000000001978: D7610001 00011005
	s_or_saveexec_b32 s19, -1                                  // 000000001980: BE9322C1
	scratch_store_b32 off, v1, s33 offset:12                   // 000000001984: DC69000C 00210100
	s_mov_b32 exec_lo, s19                                     // 00000000198C: BEFE0013
	v_mov_b32_e32 v31, v0                                      // 000000001990: 7E3E0300
	s_or_saveexec_b32 s19, -1                                  // 000000001994: BE9322C1
	scratch_load_b32 v0, off, s33 offset:12                    // 000000001998: DC51000C 00210000
	s_mov_b32 exec_lo, s19                                     // 0000000019A0: BEFE0013
	scratch_store_b32 off, v31, s33 offset:28                  // 0000000019A4: DC69001C 00211F00
	s_load_b64 s[2:3], s[0:1], null                            // 0000000019AC: F4040080 F8000000
	s_waitcnt lgkmcnt(0)                                       // 0000000019B4: BF89FC07
	v_mov_b32_e32 v1, s2                                       // 0000000019B8: 7E020202
	v_mov_b32_e32 v2, s3                                       // 0000000019BC: 7E040203
	scratch_store_b64 off, v[1:2], s33                         // 0000000019C0: DC6D0000 00210100
	s_mov_b64 s[6:7], 8                                        // 0000000019C8: BE860188
	s_mov_b32 s2, s0                                           // 0000000019CC: BE820000
	s_mov_b32 s0, s1                                           // 0000000019D0: BE800001
	s_mov_b32 s3, s6                                           // 0000000019D4: BE830006
	s_mov_b32 s1, s7                                           // 0000000019D8: BE810007
	s_add_u32 s8, s2, s3                                       // 0000000019DC: 80080302
	s_addc_u32 s0, s0, s1                                      // 0000000019E0: 82000100
	s_mov_b32 s9, s0                                           // 0000000019E4: BE890000
	s_waitcnt vmcnt(0)                                         // 0000000019E8: BF8903F7
	v_writelane_b32 v0, s8, 9                                  // 0000000019EC: D7610000 00011208
	v_writelane_b32 v0, s9, 10                                 // 0000000019F4: D7610000 00011409
	s_getpc_b64 s[0:1]                                         // 0000000019FC: BE804700
	s_add_u32 s0, s0, 0x174                                    // 000000001A00: 8000FF00 00000174
	s_addc_u32 s1, s1, 0                                       // 000000001A08: 8201FF01 00000000
	v_writelane_b32 v0, s0, 11                                 // 000000001A10: D7610000 00011600
	v_writelane_b32 v0, s1, 12                                 // 000000001A18: D7610000 00011801
	s_or_saveexec_b32 s19, -1                                  // 000000001A20: BE9322C1
	scratch_store_b32 off, v0, s33 offset:12                   // 000000001A24: DC69000C 00210000
	s_mov_b32 exec_lo, s19                                     // 000000001A2C: BEFE0013
	v_mov_b32_e32 v0, 0                                        // 000000001A30: 7E000280
	scratch_store_b32 off, v0, s33 offset:24                   // 000000001A34: DC690018 00210000
	s_swappc_b64 s[30:31], s[0:1]                              // 000000001A3C: BE9E4900
	scratch_load_b32 v31, off, s33 offset:28                   // 000000001A40: DC51001C 1F210000
	s_or_saveexec_b32 s19, -1                                  // 000000001A48: BE9322C1
	scratch_load_b32 v2, off, s33 offset:12                    // 000000001A4C: DC51000C 02210000
	s_mov_b32 exec_lo, s19                                     // 000000001A54: BEFE0013
	s_waitcnt vmcnt(0)                                         // 000000001A58: BF8903F7
	v_readlane_b32 s14, v2, 0                                  // 000000001A5C: D760000E 00010102
	v_readlane_b32 s4, v2, 7                                   // 000000001A64: D7600004 00010F02
	v_readlane_b32 s5, v2, 8                                   // 000000001A6C: D7600005 00011102
	v_readlane_b32 s8, v2, 9                                   // 000000001A74: D7600008 00011302
	v_readlane_b32 s9, v2, 10                                  // 000000001A7C: D7600009 00011502
	v_readlane_b32 s10, v2, 3                                  // 000000001A84: D760000A 00010702
	v_readlane_b32 s11, v2, 4                                  // 000000001A8C: D760000B 00010902
	v_readlane_b32 s12, v2, 2                                  // 000000001A94: D760000C 00010502
	v_readlane_b32 s13, v2, 1                                  // 000000001A9C: D760000D 00010302
	v_readlane_b32 s0, v2, 11                                  // 000000001AA4: D7600000 00011702
	v_readlane_b32 s1, v2, 12                                  // 000000001AAC: D7600001 00011902
	v_mov_b32_e32 v2, v0                                       // 000000001AB4: 7E040300
	scratch_load_b32 v0, off, s33 offset:24                    // 000000001AB8: DC510018 00210000
	scratch_store_b32 off, v2, s33 offset:20                   // 000000001AC0: DC690014 00210200
	v_mov_b32_e32 v3, v1                                       // 000000001AC8: 7E060301
	scratch_load_b32 v1, off, s33 offset:20                    // 000000001ACC: DC510014 01210000
	v_mov_b32_e32 v2, v3                                       // 000000001AD4: 7E040303
	s_waitcnt vmcnt(0)                                         // 000000001AD8: BF8903F7
	v_mov_b32_e32 v3, v1                                       // 000000001ADC: 7E060301
	s_mov_b32 s2, 3                                            // 000000001AE0: BE820083
	v_mad_u64_u32 v[1:2], s2, v3, s2, 1                        // 000000001AE4: D6FE0201 02040503
	scratch_store_b32 off, v1, s33 offset:16                   // 000000001AEC: DC690010 00210100
	scratch_load_b64 v[8:9], off, s33                          // 000000001AF4: DC550000 08210000
	s_swappc_b64 s[30:31], s[0:1]                              // 000000001AFC: BE9E4900
	scratch_load_b32 v3, off, s33 offset:16                    // 000000001B00: DC510010 03210000
	v_mov_b32_e32 v2, v0                                       // 000000001B08: 7E040300
	s_or_saveexec_b32 s19, -1                                  // 000000001B0C: BE9322C1
	scratch_load_b32 v0, off, s33 offset:12                    // 000000001B10: DC51000C 00210000
	s_mov_b32 exec_lo, s19                                     // 000000001B18: BEFE0013
	scratch_store_b32 off, v2, s33 offset:8                    // 000000001B1C: DC690008 00210200
	v_mov_b32_e32 v4, v1                                       // 000000001B24: 7E080301
	scratch_load_b32 v1, off, s33 offset:8                     // 000000001B28: DC510008 01210000
	v_mov_b32_e32 v2, v4                                       // 000000001B30: 7E040304
	s_mov_b32 s0, 2                                            // 000000001B34: BE800082
	s_waitcnt vmcnt(0)                                         // 000000001B38: BF8903F7
	v_lshlrev_b64 v[6:7], s0, v[1:2]                           // 000000001B3C: D73C0006 00020200
	v_mov_b32_e32 v1, v8                                       // 000000001B44: 7E020308
	v_mov_b32_e32 v5, v6                                       // 000000001B48: 7E0A0306
	v_mov_b32_e32 v2, v9                                       // 000000001B4C: 7E040309
	v_mov_b32_e32 v4, v7                                       // 000000001B50: 7E080307
	v_add_co_u32 v1, s0, v1, v5                                // 000000001B54: D7000001 00020B01
	v_add_co_ci_u32_e64 v4, s0, v2, v4, s0                     // 000000001B5C: D5200004 00020902
	v_mov_b32_e32 v2, v4                                       // 000000001B64: 7E040304
	global_store_b32 v[1:2], v3, off                           // 000000001B68: DC6A0000 007C0301
	s_endpgm                                                   // 000000001B70: BFB00000

0000000000001b74 <_Z13get_global_idj>:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)                    // 000000001B74: BF890000
	s_mov_b32 s18, s33                                         // 000000001B78: BE920021
	s_mov_b32 s33, s32                                         // 000000001B7C: BEA10020
	s_getpc_b64 s[0:1]                                         // 000000001B80: BE804700
	s_add_u32 s0, s0, 24                                       // 000000001B84: 8000FF00 00000018
	s_addc_u32 s1, s1, 0                                       // 000000001B8C: 8201FF01 00000000
	s_mov_b32 s33, s18                                         // 000000001B94: BEA10012
	s_setpc_b64 s[0:1]                                         // 000000001B98: BE804800

0000000000001b9c <__ockl_get_global_id>:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)                    // 000000001B9C: BF890000
	s_mov_b32 s17, s33                                         // 000000001BA0: BE910021
	s_mov_b32 s33, s32                                         // 000000001BA4: BEA10020
	s_xor_saveexec_b32 s0, -1                                  // 000000001BA8: BE8024C1
	scratch_store_b32 off, v0, s33 offset:92                   // 000000001BAC: DC69005C 00210000
	scratch_store_b32 off, v1, s33 offset:96                   // 000000001BB4: DC690060 00210100
	scratch_store_b32 off, v3, s33 offset:100                  // 000000001BBC: DC690064 00210300
	scratch_store_b32 off, v5, s33 offset:104                  // 000000001BC4: DC690068 00210500
	s_mov_b32 exec_lo, s0                                      // 000000001BCC: BEFE0000
	s_add_i32 s32, s32, 0x70                                   // 000000001BD0: 8120FF20 00000070
	scratch_store_b32 off, v31, s33 offset:8                   // 000000001BD8: DC690008 00211F00
	v_mov_b32_e32 v1, v0                                       // 000000001BE0: 7E020300
	s_or_saveexec_b32 s16, -1                                  // 000000001BE4: BE9022C1
	scratch_load_b32 v0, off, s33                              // 000000001BE8: DC510000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001BF0: BEFE0010
	scratch_store_b32 off, v1, s33 offset:4                    // 000000001BF4: DC690004 00210100
	s_waitcnt vmcnt(0)                                         // 000000001BFC: BF8903F7
	v_writelane_b32 v0, s14, 0                                 // 000000001C00: D7610000 0001000E
	v_writelane_b32 v0, s13, 1                                 // 000000001C08: D7610000 0001020D
	v_writelane_b32 v0, s12, 2                                 // 000000001C10: D7610000 0001040C
	v_writelane_b32 v0, s8, 3                                  // 000000001C18: D7610000 00010608
	v_writelane_b32 v0, s9, 4                                  // 000000001C20: D7610000 00010809
	v_writelane_b32 v0, s4, 5                                  // 000000001C28: D7610000 00010A04
	v_writelane_b32 v0, s5, 6                                  // 000000001C30: D7610000 00010C05
	s_or_saveexec_b32 s16, -1                                  // 000000001C38: BE9022C1
	scratch_store_b32 off, v0, s33                             // 000000001C3C: DC690000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001C44: BEFE0010
	s_or_saveexec_b32 s16, -1                                  // 000000001C48: BE9022C1
	scratch_load_b32 v0, off, s33                              // 000000001C4C: DC510000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001C54: BEFE0010
	scratch_load_b32 v1, off, s33 offset:4                     // 000000001C58: DC510004 01210000
	s_mov_b32 s0, 0                                            // 000000001C60: BE800080
	s_waitcnt vmcnt(0)                                         // 000000001C64: BF8903F7
	v_cmp_gt_i32_e64 s0, v1, s0                                // 000000001C68: D4440000 00000101
	s_mov_b32 s1, 0                                            // 000000001C70: BE810080
	v_mov_b32_e32 v3, s4                                       // 000000001C74: 7E060204
	v_mov_b32_e32 v1, s2                                       // 000000001C78: 7E020202
	v_mov_b32_e32 v2, s3                                       // 000000001C7C: 7E040203
	v_writelane_b32 v0, s1, 7                                  // 000000001C80: D7610000 00010E01
	scratch_store_b32 off, v3, s33 offset:20                   // 000000001C88: DC690014 00210300
	scratch_store_b64 off, v[1:2], s33 offset:12               // 000000001C90: DC6D000C 00210100
	s_mov_b32 s1, exec_lo                                      // 000000001C98: BE81007E
	s_and_b32 s0, s1, s0                                       // 000000001C9C: 8B000001
	s_xor_b32 s1, s0, s1                                       // 000000001CA0: 8D010100
	v_writelane_b32 v0, s1, 8                                  // 000000001CA4: D7610000 00011001
	s_or_saveexec_b32 s16, -1                                  // 000000001CAC: BE9022C1
	scratch_store_b32 off, v0, s33                             // 000000001CB0: DC690000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001CB8: BEFE0010
	s_mov_b32 exec_lo, s0                                      // 000000001CBC: BEFE0000
	s_cbranch_execz 28                                         // 000000001CC0: BFA5001C <__ockl_get_global_id+0x198>
	s_or_saveexec_b32 s16, -1                                  // 000000001CC4: BE9022C1
	scratch_load_b32 v0, off, s33                              // 000000001CC8: DC510000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001CD0: BEFE0010
	scratch_load_b32 v1, off, s33 offset:4                     // 000000001CD4: DC510004 01210000
	s_mov_b32 s0, 1                                            // 000000001CDC: BE800081
	s_waitcnt vmcnt(0)                                         // 000000001CE0: BF8903F7
	v_cmp_gt_i32_e64 s0, v1, s0                                // 000000001CE4: D4440000 00000101
	s_mov_b32 s1, 0                                            // 000000001CEC: BE810080
	v_mov_b32_e32 v1, s2                                       // 000000001CF0: 7E020202
	v_writelane_b32 v0, s1, 9                                  // 000000001CF4: D7610000 00011201
	scratch_store_b32 off, v1, s33 offset:24                   // 000000001CFC: DC690018 00210100
	s_mov_b32 s1, exec_lo                                      // 000000001D04: BE81007E
	s_and_b32 s0, s1, s0                                       // 000000001D08: 8B000001
	s_xor_b32 s1, s0, s1                                       // 000000001D0C: 8D010100
	v_writelane_b32 v0, s1, 10                                 // 000000001D10: D7610000 00011401
	s_or_saveexec_b32 s16, -1                                  // 000000001D18: BE9022C1
	scratch_store_b32 off, v0, s33                             // 000000001D1C: DC690000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001D24: BEFE0010
	s_mov_b32 exec_lo, s0                                      // 000000001D28: BEFE0000
	s_cbranch_execz 403                                        // 000000001D2C: BFA50193 <__ockl_get_global_id+0x7e0>
	s_branch 42                                                // 000000001D30: BFA0002A <__ockl_get_global_id+0x240>
	s_or_saveexec_b32 s16, -1                                  // 000000001D34: BE9022C1
	scratch_load_b32 v0, off, s33                              // 000000001D38: DC510000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001D40: BEFE0010
	s_waitcnt vmcnt(0)                                         // 000000001D44: BF8903F7
	v_readlane_b32 s0, v0, 8                                   // 000000001D48: D7600000 00011100
	s_or_saveexec_b32 s0, s0                                   // 000000001D50: BE802200
	v_readlane_b32 s2, v0, 11                                  // 000000001D54: D7600002 00011700
	v_readlane_b32 s3, v0, 12                                  // 000000001D5C: D7600003 00011900
	v_readlane_b32 s1, v0, 7                                   // 000000001D64: D7600001 00010F00
	scratch_load_b32 v5, off, s33 offset:20                    // 000000001D6C: DC510014 05210000
	scratch_load_b64 v[3:4], off, s33 offset:12                // 000000001D74: DC55000C 03210000
	v_writelane_b32 v0, s1, 13                                 // 000000001D7C: D7610000 00011A01
	v_mov_b32_e32 v1, s2                                       // 000000001D84: 7E020202
	v_mov_b32_e32 v2, s3                                       // 000000001D88: 7E040203
	v_writelane_b32 v0, s1, 14                                 // 000000001D8C: D7610000 00011C01
	s_waitcnt vmcnt(1)                                         // 000000001D94: BF8907F7
	scratch_store_b32 off, v5, s33 offset:44                   // 000000001D98: DC69002C 00210500
	s_waitcnt vmcnt(0)                                         // 000000001DA0: BF8903F7
	scratch_store_b64 off, v[3:4], s33 offset:36               // 000000001DA4: DC6D0024 00210300
	scratch_store_b64 off, v[1:2], s33 offset:28               // 000000001DAC: DC6D001C 00210100
	s_and_b32 s0, exec_lo, s0                                  // 000000001DB4: 8B00007E
	v_writelane_b32 v0, s0, 15                                 // 000000001DB8: D7610000 00011E00
	s_or_saveexec_b32 s16, -1                                  // 000000001DC0: BE9022C1
	scratch_store_b32 off, v0, s33                             // 000000001DC4: DC690000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001DCC: BEFE0010
	s_xor_b32 exec_lo, exec_lo, s0                             // 000000001DD0: 8D7E007E
	s_cbranch_execz 93                                         // 000000001DD4: BFA5005D <__ockl_get_global_id+0x3b0>
	s_branch 63                                                // 000000001DD8: BFA0003F <__ockl_get_global_id+0x33c>
	s_or_saveexec_b32 s16, -1                                  // 000000001DDC: BE9022C1
	scratch_load_b32 v0, off, s33                              // 000000001DE0: DC510000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001DE8: BEFE0010
	scratch_load_b32 v1, off, s33 offset:4                     // 000000001DEC: DC510004 01210000
	s_mov_b32 s0, 2                                            // 000000001DF4: BE800082
	s_waitcnt vmcnt(0)                                         // 000000001DF8: BF8903F7
	v_cmp_eq_u32_e64 s1, v1, s0                                // 000000001DFC: D44A0001 00000101
	s_mov_b32 s0, 0                                            // 000000001E04: BE800080
	v_mov_b32_e32 v1, s2                                       // 000000001E08: 7E020202
	v_writelane_b32 v0, s0, 16                                 // 000000001E0C: D7610000 00012000
	scratch_store_b32 off, v1, s33 offset:48                   // 000000001E14: DC690030 00210100
	s_mov_b32 s0, exec_lo                                      // 000000001E1C: BE80007E
	v_writelane_b32 v0, s0, 17                                 // 000000001E20: D7610000 00012200
	s_or_saveexec_b32 s16, -1                                  // 000000001E28: BE9022C1
	scratch_store_b32 off, v0, s33                             // 000000001E2C: DC690000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001E34: BEFE0010
	s_and_b32 s0, s0, s1                                       // 000000001E38: 8B000100
	s_mov_b32 exec_lo, s0                                      // 000000001E3C: BEFE0000
	s_cbranch_execz 193                                        // 000000001E40: BFA500C1 <__ockl_get_global_id+0x5ac>
	s_branch 386                                               // 000000001E44: BFA00182 <__ockl_get_global_id+0x8b4>
	s_or_saveexec_b32 s16, -1                                  // 000000001E48: BE9022C1
	scratch_load_b32 v0, off, s33                              // 000000001E4C: DC510000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001E54: BEFE0010
	s_waitcnt vmcnt(0)                                         // 000000001E58: BF8903F7
	v_readlane_b32 s3, v0, 18                                  // 000000001E5C: D7600003 00012500
	s_or_b32 exec_lo, exec_lo, s3                              // 000000001E64: 8C7E037E
	v_readlane_b32 s0, v0, 19                                  // 000000001E68: D7600000 00012700
	v_readlane_b32 s1, v0, 20                                  // 000000001E70: D7600001 00012900
	v_readlane_b32 s2, v0, 21                                  // 000000001E78: D7600002 00012B00
	scratch_load_b32 v3, off, s33 offset:52                    // 000000001E80: DC510034 03210000
	scratch_load_b64 v[1:2], off, s33 offset:56                // 000000001E88: DC550038 01210000
	s_and_b32 s2, s2, exec_lo                                  // 000000001E90: 8B027E02
	v_writelane_b32 v0, s2, 7                                  // 000000001E94: D7610000 00010E02
	s_waitcnt vmcnt(1)                                         // 000000001E9C: BF8907F7
	scratch_store_b32 off, v3, s33 offset:20                   // 000000001EA0: DC690014 00210300
	s_waitcnt vmcnt(0)                                         // 000000001EA8: BF8903F7
	scratch_store_b64 off, v[1:2], s33 offset:12               // 000000001EAC: DC6D000C 00210100
	v_writelane_b32 v0, s0, 11                                 // 000000001EB4: D7610000 00011600
	v_writelane_b32 v0, s1, 12                                 // 000000001EBC: D7610000 00011801
	s_or_saveexec_b32 s16, -1                                  // 000000001EC4: BE9022C1
	scratch_store_b32 off, v0, s33                             // 000000001EC8: DC690000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001ED0: BEFE0010
	s_branch 65431                                             // 000000001ED4: BFA0FF97 <__ockl_get_global_id+0x198>
	s_or_saveexec_b32 s16, -1                                  // 000000001ED8: BE9022C1
	scratch_load_b32 v0, off, s33                              // 000000001EDC: DC510000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001EE4: BEFE0010
	s_waitcnt vmcnt(0)                                         // 000000001EE8: BF8903F7
	v_readlane_b32 s0, v0, 13                                  // 000000001EEC: D7600000 00011B00
	scratch_load_b32 v1, off, s33 offset:4                     // 000000001EF4: DC510004 01210000
	s_mov_b32 s1, 0                                            // 000000001EFC: BE810080
	s_waitcnt vmcnt(0)                                         // 000000001F00: BF8903F7
	v_cmp_eq_u32_e64 s1, v1, s1                                // 000000001F04: D44A0001 00000301
	v_mov_b32_e32 v1, s2                                       // 000000001F0C: 7E020202
	v_writelane_b32 v0, s0, 22                                 // 000000001F10: D7610000 00012C00
	scratch_store_b32 off, v1, s33 offset:64                   // 000000001F18: DC690040 00210100
	s_mov_b32 s0, exec_lo                                      // 000000001F20: BE80007E
	v_writelane_b32 v0, s0, 23                                 // 000000001F24: D7610000 00012E00
	s_or_saveexec_b32 s16, -1                                  // 000000001F2C: BE9022C1
	scratch_store_b32 off, v0, s33                             // 000000001F30: DC690000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001F38: BEFE0010
	s_and_b32 s0, s0, s1                                       // 000000001F3C: 8B000100
	s_mov_b32 exec_lo, s0                                      // 000000001F40: BEFE0000
	s_cbranch_execz 411                                        // 000000001F44: BFA5019B <__ockl_get_global_id+0xa18>
	s_branch 35                                                // 000000001F48: BFA00023 <__ockl_get_global_id+0x43c>
	s_or_saveexec_b32 s16, -1                                  // 000000001F4C: BE9022C1
	scratch_load_b32 v0, off, s33                              // 000000001F50: DC510000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001F58: BEFE0010
	s_waitcnt vmcnt(0)                                         // 000000001F5C: BF8903F7
	v_readlane_b32 s0, v0, 15                                  // 000000001F60: D7600000 00011F00
	s_or_b32 exec_lo, exec_lo, s0                              // 000000001F68: 8C7E007E
	v_readlane_b32 s1, v0, 14                                  // 000000001F6C: D7600001 00011D00
	scratch_load_b32 v3, off, s33 offset:44                    // 000000001F74: DC51002C 03210000
	scratch_load_b64 v[4:5], off, s33 offset:36                // 000000001F7C: DC550024 04210000
	scratch_load_b64 v[1:2], off, s33 offset:28                // 000000001F84: DC55001C 01210000
	s_waitcnt vmcnt(1)                                         // 000000001F8C: BF8907F7
	scratch_store_b64 off, v[4:5], s33 offset:80               // 000000001F90: DC6D0050 00210400
	scratch_store_b32 off, v3, s33 offset:76                   // 000000001F98: DC69004C 00210300
	s_waitcnt vmcnt(0)                                         // 000000001FA0: BF8903F7
	scratch_store_b64 off, v[1:2], s33 offset:68               // 000000001FA4: DC6D0044 00210100
	s_mov_b32 s0, exec_lo                                      // 000000001FAC: BE80007E
	v_writelane_b32 v0, s0, 24                                 // 000000001FB0: D7610000 00013000
	s_or_saveexec_b32 s16, -1                                  // 000000001FB8: BE9022C1
	scratch_store_b32 off, v0, s33                             // 000000001FBC: DC690000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001FC4: BEFE0010
	s_and_b32 s0, s0, s1                                       // 000000001FC8: 8B000100
	s_mov_b32 exec_lo, s0                                      // 000000001FCC: BEFE0000
	s_cbranch_execz 438                                        // 000000001FD0: BFA501B6 <__ockl_get_global_id+0xb10>
	s_branch 415                                               // 000000001FD4: BFA0019F <__ockl_get_global_id+0xab8>
	s_or_saveexec_b32 s16, -1                                  // 000000001FD8: BE9022C1
	scratch_load_b32 v0, off, s33                              // 000000001FDC: DC510000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000001FE4: BEFE0010
	s_waitcnt vmcnt(0)                                         // 000000001FE8: BF8903F7
	v_readlane_b32 s2, v0, 13                                  // 000000001FEC: D7600002 00011B00
	v_readlane_b32 s4, v0, 3                                   // 000000001FF4: D7600004 00010700
	v_readlane_b32 s5, v0, 4                                   // 000000001FFC: D7600005 00010900
	v_readlane_b32 s0, v0, 2                                   // 000000002004: D7600000 00010500
	v_readlane_b32 s8, v0, 5                                   // 00000000200C: D7600008 00010B00
	v_readlane_b32 s9, v0, 6                                   // 000000002014: D7600009 00010D00
	scratch_load_b32 v1, off, s33 offset:8                     // 00000000201C: DC510008 01210000
	s_getpc_b64 s[6:7]                                         // 000000002024: BE864700
	s_add_u32 s6, s6, 0xffffe898                               // 000000002028: 8006FF06 FFFFE898
	s_addc_u32 s7, s7, -1                                      // 000000002030: 8207FF07 FFFFFFFF
	s_load_b32 s1, s[6:7], null                                // 000000002038: F4000043 F8000000
	s_mov_b64 s[10:11], 4                                      // 000000002040: BE8A0184
	s_mov_b32 s7, s8                                           // 000000002044: BE870008
	s_mov_b32 s3, s9                                           // 000000002048: BE830009
	s_mov_b32 s8, s10                                          // 00000000204C: BE88000A
	s_mov_b32 s6, s11                                          // 000000002050: BE86000B
	s_add_u32 s8, s7, s8                                       // 000000002054: 80080807
	s_addc_u32 s3, s3, s6                                      // 000000002058: 82030603
	s_mov_b32 s9, s3                                           // 00000000205C: BE890003
	s_mov_b64 s[12:13], 12                                     // 000000002060: BE8C018C
	s_mov_b32 s6, s4                                           // 000000002064: BE860004
	s_mov_b32 s3, s5                                           // 000000002068: BE830005
	s_mov_b32 s10, s12                                         // 00000000206C: BE8A000C
	s_mov_b32 s7, s13                                          // 000000002070: BE87000D
	s_add_u32 s6, s6, s10                                      // 000000002074: 80060A06
	s_addc_u32 s3, s3, s7                                      // 000000002078: 82030703
	s_mov_b32 s7, s3                                           // 00000000207C: BE870003
	s_mov_b32 s3, 0x1f4                                        // 000000002080: BE8300FF 000001F4
	s_waitcnt lgkmcnt(0)                                       // 000000002088: BF89FC07
	s_cmp_lt_i32 s1, s3                                        // 00000000208C: BF040301
	s_mov_b32 s3, s7                                           // 000000002090: BE830007
	s_mov_b32 s1, s9                                           // 000000002094: BE810009
	s_cselect_b32 s1, s1, s3                                   // 000000002098: 98010301
	s_mov_b32 s3, s8                                           // 00000000209C: BE830008
	s_cselect_b32 s6, s3, s6                                   // 0000000020A0: 98060603
	s_mov_b32 s7, s1                                           // 0000000020A4: BE870001
	v_mov_b32_e32 v2, 0                                        // 0000000020A8: 7E040280
	global_load_u16 v3, v2, s[6:7]                             // 0000000020AC: DC4A0000 03060002
	s_mov_b32 s1, 0x3ff                                        // 0000000020B4: BE8100FF 000003FF
	s_waitcnt vmcnt(1)                                         // 0000000020BC: BF8907F7
	v_and_b32_e64 v4, v1, s1                                   // 0000000020C0: D51B0004 00000301
	v_mov_b32_e32 v1, s1                                       // 0000000020C8: 7E020201
	v_mov_b32_e32 v5, v1                                       // 0000000020CC: 7E0A0301
	s_waitcnt vmcnt(0)                                         // 0000000020D0: BF8903F7
	v_mad_u64_u32 v[1:2], s0, s0, v3, v[4:5]                   // 0000000020D4: D6FE0001 04120600
	s_mov_b32 s1, 40                                           // 0000000020DC: BE8100A8
	s_mov_b32 s0, 0                                            // 0000000020E0: BE800080
	s_cselect_b32 s6, s0, s1                                   // 0000000020E4: 98060100
	s_mov_b32 s0, 0                                            // 0000000020E8: BE800080
	s_mov_b32 s7, s0                                           // 0000000020EC: BE870000
	s_mov_b32 s0, s4                                           // 0000000020F0: BE800004
	s_mov_b32 s1, s5                                           // 0000000020F4: BE810005
	s_mov_b32 s4, s6                                           // 0000000020F8: BE840006
	s_mov_b32 s3, s7                                           // 0000000020FC: BE830007
	s_add_u32 s0, s0, s4                                       // 000000002100: 80000400
	s_addc_u32 s3, s1, s3                                      // 000000002104: 82030301
	s_mov_b32 s1, s3                                           // 000000002108: BE810003
	s_mov_b32 s3, -1                                           // 00000000210C: BE8300C1
	s_or_b32 s2, s2, exec_lo                                   // 000000002110: 8C027E02
	v_writelane_b32 v0, s2, 22                                 // 000000002114: D7610000 00012C02
	scratch_store_b32 off, v1, s33 offset:64                   // 00000000211C: DC690040 00210100
	v_writelane_b32 v0, s0, 25                                 // 000000002124: D7610000 00013200
	v_writelane_b32 v0, s1, 26                                 // 00000000212C: D7610000 00013401
	s_or_saveexec_b32 s16, -1                                  // 000000002134: BE9022C1
	scratch_store_b32 off, v0, s33                             // 000000002138: DC690000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000002140: BEFE0010
	s_branch 283                                               // 000000002144: BFA0011B <__ockl_get_global_id+0xa18>
	s_or_saveexec_b32 s16, -1                                  // 000000002148: BE9022C1
	scratch_load_b32 v1, off, s33                              // 00000000214C: DC510000 01210000
	s_mov_b32 exec_lo, s16                                     // 000000002154: BEFE0010
	s_waitcnt vmcnt(0)                                         // 000000002158: BF8903F7
	v_readlane_b32 s0, v1, 17                                  // 00000000215C: D7600000 00012301
	s_or_b32 exec_lo, exec_lo, s0                              // 000000002164: 8C7E007E
	v_readlane_b32 s4, v1, 16                                  // 000000002168: D7600004 00012101
	v_readlane_b32 s2, v1, 27                                  // 000000002170: D7600002 00013701
	v_readlane_b32 s3, v1, 28                                  // 000000002178: D7600003 00013901
	s_or_saveexec_b32 s16, -1                                  // 000000002180: BE9022C1
	scratch_load_b32 v0, off, s33 offset:88                    // 000000002184: DC510058 00210000
	s_mov_b32 exec_lo, s16                                     // 00000000218C: BEFE0010
	scratch_load_b32 v2, off, s33 offset:48                    // 000000002190: DC510030 02210000
	s_mov_b64 s[0:1], 0                                        // 000000002198: BE800180
	s_and_b32 s4, s4, exec_lo                                  // 00000000219C: 8B047E04
	v_writelane_b32 v1, s4, 9                                  // 0000000021A0: D7610001 00011204
	s_waitcnt vmcnt(0)                                         // 0000000021A8: BF8903F7
	scratch_store_b32 off, v2, s33 offset:24                   // 0000000021AC: DC690018 00210200
	v_writelane_b32 v1, s2, 29                                 // 0000000021B4: D7610001 00013A02
	v_writelane_b32 v1, s3, 30                                 // 0000000021BC: D7610001 00013C03
	v_writelane_b32 v1, s0, 31                                 // 0000000021C4: D7610001 00013E00
	s_or_saveexec_b32 s16, -1                                  // 0000000021CC: BE9022C1
	scratch_store_b32 off, v1, s33                             // 0000000021D0: DC690000 00210100
	s_mov_b32 exec_lo, s16                                     // 0000000021D8: BEFE0010
	v_writelane_b32 v0, s1, 0                                  // 0000000021DC: D7610000 00010001
	s_or_saveexec_b32 s16, -1                                  // 0000000021E4: BE9022C1
	scratch_store_b32 off, v0, s33 offset:88                   // 0000000021E8: DC690058 00210000
	s_mov_b32 exec_lo, s16                                     // 0000000021F0: BEFE0010
	s_branch 97                                                // 0000000021F4: BFA00061 <__ockl_get_global_id+0x7e0>
	s_or_saveexec_b32 s16, -1                                  // 0000000021F8: BE9022C1
	scratch_load_b32 v1, off, s33 offset:88                    // 0000000021FC: DC510058 01210000
	s_mov_b32 exec_lo, s16                                     // 000000002204: BEFE0010
	s_or_saveexec_b32 s16, -1                                  // 000000002208: BE9022C1
	scratch_load_b32 v3, off, s33                              // 00000000220C: DC510000 03210000
	s_mov_b32 exec_lo, s16                                     // 000000002214: BEFE0010
	s_waitcnt vmcnt(1)                                         // 000000002218: BF8907F7
	v_readlane_b32 s0, v1, 1                                   // 00000000221C: D7600000 00010301
	s_waitcnt vmcnt(0)                                         // 000000002224: BF8903F7
	v_readlane_b32 s4, v3, 3                                   // 000000002228: D7600004 00010703
	v_readlane_b32 s5, v3, 4                                   // 000000002230: D7600005 00010903
	v_readlane_b32 s1, v3, 1                                   // 000000002238: D7600001 00010303
	v_readlane_b32 s2, v3, 5                                   // 000000002240: D7600002 00010B03
	v_readlane_b32 s3, v3, 6                                   // 000000002248: D7600003 00010D03
	scratch_load_b32 v0, off, s33 offset:8                     // 000000002250: DC510008 00210000
	s_getpc_b64 s[6:7]                                         // 000000002258: BE864700
	s_add_u32 s6, s6, 0xffffe664                               // 00000000225C: 8006FF06 FFFFE664
	s_addc_u32 s7, s7, -1                                      // 000000002264: 8207FF07 FFFFFFFF
	s_load_b32 s6, s[6:7], null                                // 00000000226C: F4000183 F8000000
	s_mov_b64 s[10:11], 6                                      // 000000002274: BE8A0186
	s_mov_b32 s7, s2                                           // 000000002278: BE870002
	s_mov_b32 s2, s3                                           // 00000000227C: BE820003
	s_mov_b32 s8, s10                                          // 000000002280: BE88000A
	s_mov_b32 s3, s11                                          // 000000002284: BE83000B
	s_add_u32 s8, s7, s8                                       // 000000002288: 80080807
	s_addc_u32 s2, s2, s3                                      // 00000000228C: 82020302
	s_mov_b32 s9, s2                                           // 000000002290: BE890002
	s_mov_b64 s[12:13], 14                                     // 000000002294: BE8C018E
	s_mov_b32 s2, s4                                           // 000000002298: BE820004
	s_mov_b32 s3, s5                                           // 00000000229C: BE830005
	s_mov_b32 s10, s12                                         // 0000000022A0: BE8A000C
	s_mov_b32 s7, s13                                          // 0000000022A4: BE87000D
	s_add_u32 s2, s2, s10                                      // 0000000022A8: 80020A02
	s_addc_u32 s7, s3, s7                                      // 0000000022AC: 82070703
	s_mov_b32 s3, s7                                           // 0000000022B0: BE830007
	s_mov_b32 s7, 0x1f4                                        // 0000000022B4: BE8700FF 000001F4
	s_waitcnt lgkmcnt(0)                                       // 0000000022BC: BF89FC07
	s_cmp_lt_i32 s6, s7                                        // 0000000022C0: BF040706
	s_mov_b32 s7, s3                                           // 0000000022C4: BE870003
	s_mov_b32 s6, s9                                           // 0000000022C8: BE860009
	s_cselect_b32 s6, s6, s7                                   // 0000000022CC: 98060706
	s_mov_b32 s3, s2                                           // 0000000022D0: BE830002
	s_mov_b32 s2, s8                                           // 0000000022D4: BE820008
	s_cselect_b32 s2, s2, s3                                   // 0000000022D8: 98020302
	s_mov_b32 s3, s6                                           // 0000000022DC: BE830006
	v_mov_b32_e32 v1, 0                                        // 0000000022E0: 7E020280
	global_load_u16 v2, v1, s[2:3]                             // 0000000022E4: DC4A0000 02020001
	s_waitcnt vmcnt(1)                                         // 0000000022EC: BF8907F7
	v_bfe_u32 v4, v0, 10, 10                                   // 0000000022F0: D6100004 02291500
	v_mov_b32_e32 v0, s2                                       // 0000000022F8: 7E000202
	v_mov_b32_e32 v5, v0                                       // 0000000022FC: 7E0A0300
	s_waitcnt vmcnt(0)                                         // 000000002300: BF8903F7
	v_mad_u64_u32 v[0:1], s1, s1, v2, v[4:5]                   // 000000002304: D6FE0100 04120401
	v_mov_b32_e32 v2, v0                                       // 00000000230C: 7E040300
	s_mov_b32 s2, 48                                           // 000000002310: BE8200B0
	s_mov_b32 s1, 8                                            // 000000002314: BE810088
	s_cselect_b32 s6, s1, s2                                   // 000000002318: 98060201
	s_mov_b32 s1, 0                                            // 00000000231C: BE810080
	s_mov_b32 s7, s1                                           // 000000002320: BE870001
	s_mov_b32 s2, s4                                           // 000000002324: BE820004
	s_mov_b32 s1, s5                                           // 000000002328: BE810005
	s_mov_b32 s4, s6                                           // 00000000232C: BE840006
	s_mov_b32 s3, s7                                           // 000000002330: BE830007
	s_add_u32 s2, s2, s4                                       // 000000002334: 80020402
	s_addc_u32 s1, s1, s3                                      // 000000002338: 82010301
	s_mov_b32 s3, s1                                           // 00000000233C: BE830001
	s_mov_b32 s1, -1                                           // 000000002340: BE8100C1
	v_mov_b32_e32 v0, s2                                       // 000000002344: 7E000202
	v_mov_b32_e32 v1, s3                                       // 000000002348: 7E020203
	s_or_b32 s0, s0, exec_lo                                   // 00000000234C: 8C007E00
	v_writelane_b32 v3, s0, 21                                 // 000000002350: D7610003 00012A00
	s_or_saveexec_b32 s16, -1                                  // 000000002358: BE9022C1
	scratch_store_b32 off, v3, s33                             // 00000000235C: DC690000 00210300
	s_mov_b32 exec_lo, s16                                     // 000000002364: BEFE0010
	scratch_store_b32 off, v2, s33 offset:52                   // 000000002368: DC690034 00210200
	scratch_store_b64 off, v[0:1], s33 offset:56               // 000000002370: DC6D0038 00210000
	s_branch 65203                                             // 000000002378: BFA0FEB3 <__ockl_get_global_id+0x2ac>
	s_or_saveexec_b32 s16, -1                                  // 00000000237C: BE9022C1
	scratch_load_b32 v1, off, s33 offset:88                    // 000000002380: DC510058 01210000
	s_mov_b32 exec_lo, s16                                     // 000000002388: BEFE0010
	s_or_saveexec_b32 s16, -1                                  // 00000000238C: BE9022C1
	scratch_load_b32 v0, off, s33                              // 000000002390: DC510000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000002398: BEFE0010
	s_waitcnt vmcnt(0)                                         // 00000000239C: BF8903F7
	v_readlane_b32 s0, v0, 10                                  // 0000000023A0: D7600000 00011500
	s_or_saveexec_b32 s0, s0                                   // 0000000023A8: BE802200
	v_readlane_b32 s1, v0, 9                                   // 0000000023AC: D7600001 00011300
	v_readlane_b32 s2, v0, 29                                  // 0000000023B4: D7600002 00013B00
	v_readlane_b32 s3, v0, 30                                  // 0000000023BC: D7600003 00013D00
	v_readlane_b32 s4, v0, 31                                  // 0000000023C4: D7600004 00013F00
	v_readlane_b32 s5, v1, 0                                   // 0000000023CC: D7600005 00010101
	v_writelane_b32 v0, s4, 19                                 // 0000000023D4: D7610000 00012604
	v_writelane_b32 v0, s5, 20                                 // 0000000023DC: D7610000 00012805
	scratch_load_b32 v3, off, s33 offset:24                    // 0000000023E4: DC510018 03210000
	v_writelane_b32 v1, s1, 1                                  // 0000000023EC: D7610001 00010201
	s_or_saveexec_b32 s16, -1                                  // 0000000023F4: BE9022C1
	scratch_store_b32 off, v1, s33 offset:88                   // 0000000023F8: DC690058 00210100
	s_mov_b32 exec_lo, s16                                     // 000000002400: BEFE0010
	v_mov_b32_e32 v1, s2                                       // 000000002404: 7E020202
	v_mov_b32_e32 v2, s3                                       // 000000002408: 7E040203
	v_writelane_b32 v0, s1, 21                                 // 00000000240C: D7610000 00012A01
	s_waitcnt vmcnt(0)                                         // 000000002414: BF8903F7
	scratch_store_b32 off, v3, s33 offset:52                   // 000000002418: DC690034 00210300
	scratch_store_b64 off, v[1:2], s33 offset:56               // 000000002420: DC6D0038 00210100
	s_and_b32 s0, exec_lo, s0                                  // 000000002428: 8B00007E
	v_writelane_b32 v0, s0, 18                                 // 00000000242C: D7610000 00012400
	s_or_saveexec_b32 s16, -1                                  // 000000002434: BE9022C1
	scratch_store_b32 off, v0, s33                             // 000000002438: DC690000 00210000
	s_mov_b32 exec_lo, s16                                     // 000000002440: BEFE0010
	s_xor_b32 exec_lo, exec_lo, s0                             // 000000002444: 8D7E007E
	s_cbranch_execz 65151                                      // 000000002448: BFA5FE7F <__ockl_get_global_id+0x2ac>
	s_branch 65386                                             // 00000000244C: BFA0FF6A <__ockl_get_global_id+0x65c>
	s_or_saveexec_b32 s16, -1                                  // 000000002450: BE9022C1
	scratch_load_b32 v0, off, s33                              // 000000002454: DC510000 00210000
	s_mov_b32 exec_lo, s16                                     // 00000000245C: BEFE0010
	s_waitcnt vmcnt(0)                                         // 000000002460: BF8903F7
	v_readlane_b32 s2, v0, 3                                   // 000000002464: D7600002 00010700
	v_readlane_b32 s3, v0, 4                                   // 00000000246C: D7600003 00010900
	v_readlane_b32 s0, v0, 0                                   // 000000002474: D7600000 00010100
	v_readlane_b32 s4, v0, 5                                   // 00000000247C: D7600004 00010B00
	v_readlane_b32 s5, v0, 6                                   // 000000002484: D7600005 00010D00
	scratch_load_b32 v1, off, s33 offset:8                     // 00000000248C: DC510008 01210000
	s_getpc_b64 s[6:7]                                         // 000000002494: BE864700
	s_add_u32 s6, s6, 0xffffe428                               // 000000002498: 8006FF06 FFFFE428
	s_addc_u32 s7, s7, -1                                      // 0000000024A0: 8207FF07 FFFFFFFF
	s_load_b32 s1, s[6:7], null                                // 0000000024A8: F4000043 F8000000
	s_mov_b64 s[8:9], 8                                        // 0000000024B0: BE880188
	s_mov_b32 s6, s4                                           // 0000000024B4: BE860004
	s_mov_b32 s4, s5                                           // 0000000024B8: BE840005
	s_mov_b32 s7, s8                                           // 0000000024BC: BE870008
	s_mov_b32 s5, s9                                           // 0000000024C0: BE850009
	s_add_u32 s6, s6, s7                                       // 0000000024C4: 80060706
	s_addc_u32 s4, s4, s5                                      // 0000000024C8: 82040504
	s_mov_b32 s7, s4                                           // 0000000024CC: BE870004
	s_mov_b64 s[10:11], 16                                     // 0000000024D0: BE8A0190
	s_mov_b32 s4, s2                                           // 0000000024D4: BE840002
	s_mov_b32 s5, s3                                           // 0000000024D8: BE850003
	s_mov_b32 s9, s10                                          // 0000000024DC: BE89000A
	s_mov_b32 s8, s11                                          // 0000000024E0: BE88000B
	s_add_u32 s4, s4, s9                                       // 0000000024E4: 80040904
	s_addc_u32 s8, s5, s8                                      // 0000000024E8: 82080805
	s_mov_b32 s5, s8                                           // 0000000024EC: BE850008
	s_mov_b32 s8, 0x1f4                                        // 0000000024F0: BE8800FF 000001F4
	s_waitcnt lgkmcnt(0)                                       // 0000000024F8: BF89FC07
	s_cmp_lt_i32 s1, s8                                        // 0000000024FC: BF040801
	s_mov_b32 s8, s5                                           // 000000002500: BE880005
	s_mov_b32 s1, s7                                           // 000000002504: BE810007
	s_cselect_b32 s1, s1, s8                                   // 000000002508: 98010801
	s_mov_b32 s5, s4                                           // 00000000250C: BE850004
	s_mov_b32 s4, s6                                           // 000000002510: BE840006
	s_cselect_b32 s4, s4, s5                                   // 000000002514: 98040504
	s_mov_b32 s5, s1                                           // 000000002518: BE850001
	v_mov_b32_e32 v2, 0                                        // 00000000251C: 7E040280
	global_load_u16 v3, v2, s[4:5]                             // 000000002520: DC4A0000 03040002
	s_waitcnt vmcnt(1)                                         // 000000002528: BF8907F7
	v_bfe_u32 v4, v1, 20, 10                                   // 00000000252C: D6100004 02292901
	v_mov_b32_e32 v1, s1                                       // 000000002534: 7E020201
	v_mov_b32_e32 v5, v1                                       // 000000002538: 7E0A0301
	s_waitcnt vmcnt(0)                                         // 00000000253C: BF8903F7
	v_mad_u64_u32 v[1:2], s0, s0, v3, v[4:5]                   // 000000002540: D6FE0001 04120600
	s_mov_b32 s1, 56                                           // 000000002548: BE8100B8
	s_mov_b32 s0, 16                                           // 00000000254C: BE800090
	s_cselect_b32 s4, s0, s1                                   // 000000002550: 98040100
	s_mov_b32 s0, 0                                            // 000000002554: BE800080
	s_mov_b32 s5, s0                                           // 000000002558: BE850000
	s_mov_b32 s0, s2                                           // 00000000255C: BE800002
	s_mov_b32 s1, s3                                           // 000000002560: BE810003
	s_mov_b32 s3, s4                                           // 000000002564: BE830004
	s_mov_b32 s2, s5                                           // 000000002568: BE820005
	s_add_u32 s0, s0, s3                                       // 00000000256C: 80000300
	s_addc_u32 s2, s1, s2                                      // 000000002570: 82020201
	s_mov_b32 s1, s2                                           // 000000002574: BE810002
	s_mov_b32 s2, -1                                           // 000000002578: BE8200C1
	s_mov_b32 s2, exec_lo                                      // 00000000257C: BE82007E
	v_writelane_b32 v0, s2, 16                                 // 000000002580: D7610000 00012002
	scratch_store_b32 off, v1, s33 offset:48                   // 000000002588: DC690030 00210100
	v_writelane_b32 v0, s0, 27                                 // 000000002590: D7610000 00013600
	v_writelane_b32 v0, s1, 28                                 // 000000002598: D7610000 00013801
	s_or_saveexec_b32 s16, -1                                  // 0000000025A0: BE9022C1
	scratch_store_b32 off, v0, s33                             // 0000000025A4: DC690000 00210000
	s_mov_b32 exec_lo, s16                                     // 0000000025AC: BEFE0010
	s_branch 65253                                             // 0000000025B0: BFA0FEE5 <__ockl_get_global_id+0x5ac>
	s_or_saveexec_b32 s16, -1                                  // 0000000025B4: BE9022C1
	scratch_load_b32 v5, off, s33                              // 0000000025B8: DC510000 05210000
	s_mov_b32 exec_lo, s16                                     // 0000000025C0: BEFE0010
	s_waitcnt vmcnt(0)                                         // 0000000025C4: BF8903F7
	v_readlane_b32 s4, v5, 23                                  // 0000000025C8: D7600004 00012F05
	s_or_b32 exec_lo, exec_lo, s4                              // 0000000025D0: 8C7E047E
	v_readlane_b32 s0, v5, 13                                  // 0000000025D4: D7600000 00011B05
	v_readlane_b32 s1, v5, 22                                  // 0000000025DC: D7600001 00012D05
	v_readlane_b32 s2, v5, 25                                  // 0000000025E4: D7600002 00013305
	v_readlane_b32 s3, v5, 26                                  // 0000000025EC: D7600003 00013505
	scratch_load_b32 v4, off, s33 offset:64                    // 0000000025F4: DC510040 04210000
	s_mov_b64 s[4:5], 0                                        // 0000000025FC: BE840180
	v_mov_b32_e32 v2, s2                                       // 000000002600: 7E040202
	v_mov_b32_e32 v3, s3                                       // 000000002604: 7E060203
	v_mov_b32_e32 v0, 0                                        // 000000002608: 7E000280
	v_mov_b32_e32 v1, 0                                        // 00000000260C: 7E020280
	s_and_not1_b32 s0, s0, exec_lo                             // 000000002610: 91007E00
	s_and_b32 s1, s1, exec_lo                                  // 000000002614: 8B017E01
	s_or_b32 s0, s0, s1                                        // 000000002618: 8C000100
	v_writelane_b32 v5, s0, 14                                 // 00000000261C: D7610005 00011C00
	s_or_saveexec_b32 s16, -1                                  // 000000002624: BE9022C1
	scratch_store_b32 off, v5, s33                             // 000000002628: DC690000 00210500
	s_mov_b32 exec_lo, s16                                     // 000000002630: BEFE0010
	s_waitcnt vmcnt(0)                                         // 000000002634: BF8903F7
	scratch_store_b32 off, v4, s33 offset:44                   // 000000002638: DC69002C 00210400
	scratch_store_b64 off, v[2:3], s33 offset:36               // 000000002640: DC6D0024 00210200
	scratch_store_b64 off, v[0:1], s33 offset:28               // 000000002648: DC6D001C 00210000
	s_branch 65086                                             // 000000002650: BFA0FE3E <__ockl_get_global_id+0x3b0>
	scratch_load_b64 v[0:1], off, s33 offset:80                // 000000002654: DC550050 00210000
	scratch_load_b32 v4, off, s33 offset:76                    // 00000000265C: DC51004C 04210000
	s_mov_b32 s0, 0                                            // 000000002664: BE800080
	v_mov_b32_e32 v2, 0                                        // 000000002668: 7E040280
	v_mov_b32_e32 v5, v2                                       // 00000000266C: 7E0A0302
	s_waitcnt vmcnt(1)                                         // 000000002670: BF8907F7
	global_load_b64 v[1:2], v[0:1], off                        // 000000002674: DC560000 017C0000
	s_waitcnt vmcnt(0)                                         // 00000000267C: BF8903F7
	v_mov_b32_e32 v0, v1                                       // 000000002680: 7E000301
	v_mov_b32_e32 v3, v4                                       // 000000002684: 7E060304
	v_mov_b32_e32 v1, v2                                       // 000000002688: 7E020302
	v_mov_b32_e32 v2, v5                                       // 00000000268C: 7E040305
	v_add_co_u32 v0, s0, v0, v3                                // 000000002690: D7000000 00020700
	v_add_co_ci_u32_e64 v2, s0, v1, v2, s0                     // 000000002698: D5200002 00020501
	v_mov_b32_e32 v1, v2                                       // 0000000026A0: 7E020302
	scratch_store_b64 off, v[0:1], s33 offset:68               // 0000000026A4: DC6D0044 00210000
	s_or_saveexec_b32 s16, -1                                  // 0000000026AC: BE9022C1
	scratch_load_b32 v3, off, s33                              // 0000000026B0: DC510000 03210000
	s_mov_b32 exec_lo, s16                                     // 0000000026B8: BEFE0010
	s_waitcnt vmcnt(0)                                         // 0000000026BC: BF8903F7
	v_readlane_b32 s0, v3, 24                                  // 0000000026C0: D7600000 00013103
	s_or_b32 exec_lo, exec_lo, s0                              // 0000000026C8: 8C7E007E
	s_or_saveexec_b32 s16, -1                                  // 0000000026CC: BE9022C1
	scratch_load_b32 v2, off, s33 offset:88                    // 0000000026D0: DC510058 02210000
	s_mov_b32 exec_lo, s16                                     // 0000000026D8: BEFE0010
	scratch_load_b64 v[4:5], off, s33 offset:68                // 0000000026DC: DC550044 04210000
	s_mov_b32 s0, 32                                           // 0000000026E4: BE8000A0
	s_waitcnt vmcnt(0)                                         // 0000000026E8: BF8903F7
	v_lshrrev_b64 v[0:1], s0, v[4:5]                           // 0000000026EC: D73D0000 00020800
	v_mov_b32_e32 v1, v0                                       // 0000000026F4: 7E020300
	v_mov_b32_e32 v0, v4                                       // 0000000026F8: 7E000304
	s_xor_saveexec_b32 s0, -1                                  // 0000000026FC: BE8024C1
	scratch_load_b32 v0, off, s33 offset:92                    // 000000002700: DC51005C 00210000
	scratch_load_b32 v1, off, s33 offset:96                    // 000000002708: DC510060 01210000
	scratch_load_b32 v3, off, s33 offset:100                   // 000000002710: DC510064 03210000
	scratch_load_b32 v5, off, s33 offset:104                   // 000000002718: DC510068 05210000
	s_mov_b32 exec_lo, s0                                      // 000000002720: BEFE0000
	s_add_i32 s32, s32, 0xffffff90                             // 000000002724: 8120FF20 FFFFFF90
	s_mov_b32 s33, s17                                         // 00000000272C: BEA10011
	s_waitcnt vmcnt(0)                                         // 000000002730: BF8903F7
	s_setpc_b64 s[30:31]                                       // 000000002734: BE80481E
