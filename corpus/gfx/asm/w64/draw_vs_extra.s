	.text
	.amdgcn_target "amdgcn-unknown-amdpal--gfx1100"
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:
	v_lshl_add_u32 v1, v0, 1, v0
	v_mov_b32_e32 v14, 0
	s_delay_alu instid0(VALU_DEP_2) | instskip(NEXT) | instid1(VALU_DEP_1)
	v_ashrrev_i32_e32 v2, 31, v1
	v_lshlrev_b64 v[1:2], 4, v[1:2]
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_2)
	v_add_co_u32 v10, vcc, s0, v1
	v_add_co_ci_u32_e32 v11, vcc, s1, v2, vcc
	v_ashrrev_i32_e32 v1, 31, v0
	s_clause 0x2
	global_load_b128 v[2:5], v[10:11], off offset:16
	global_load_b128 v[6:9], v[10:11], off
	global_load_b128 v[10:13], v[10:11], off offset:32
	v_lshlrev_b64 v[0:1], 4, v[0:1]
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_2)
	v_add_co_u32 v0, vcc, s2, v0
	v_add_co_ci_u32_e32 v1, vcc, s3, v1, vcc
	s_waitcnt vmcnt(2)
	global_store_b128 v[0:1], v[2:5], off
	s_waitcnt vmcnt(1)
	exp pos0 v6, v7, v8, v9
	s_waitcnt vmcnt(0)
	exp pos1 v13, off, off, off
	exp pos2 v10, v11, v12, v14 done
	s_nop 0
	s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
	s_endpgm
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 156
; NumSgprs: 6
; NumVgprs: 15
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 3
; NumSGPRsForWavesPerEU: 6
; NumVGPRsForWavesPerEU: 15
; Occupancy: 16
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 0
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.p2alignl 7, 3214868480
	.fill 96, 4, 3214868480
	.section	".note.GNU-stack","",@progbits
	.amd_amdgpu_isa "amdgcn-unknown-amdpal--gfx1100"
	.amdgpu_pal_metadata
---
amdpal.pipelines:
  - .hardware_stages:
      .vs:
        .entry_point:    main
        .scratch_memory_size: 0
        .sgpr_count:     0x6
        .vgpr_count:     0xf
    .registers:
      '0x2c4a (SPI_SHADER_PGM_RSRC1_VS)': 0x82f0003
      '0x2c4b (SPI_SHADER_PGM_RSRC2_VS)': 0
...
	.end_amdgpu_pal_metadata
