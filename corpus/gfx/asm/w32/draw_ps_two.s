	.text
	.amdgcn_target "amdgcn-unknown-amdpal--gfx1100"
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:
	s_mov_b32 s1, exec_lo
	s_mov_b32 s2, exec_lo
	s_wqm_b32 exec_lo, exec_lo
	s_mov_b32 m0, s0
	lds_param_load v2, attr0.x wait_vdst:15
	lds_param_load v3, attr0.y wait_vdst:15
	lds_param_load v4, attr0.z wait_vdst:15
	lds_param_load v5, attr0.w wait_vdst:15
	lds_param_load v6, attr1.x wait_vdst:15
	lds_param_load v7, attr1.y wait_vdst:15
	s_mov_b32 exec_lo, s2
	s_delay_alu instid0(SALU_CYCLE_1) | instskip(SKIP_4) | instid1(VALU_DEP_3)
	s_wqm_b32 exec_lo, exec_lo
	s_waitcnt expcnt(4)
	v_dual_mov_b32 v9, v2 :: v_dual_mov_b32 v12, v3
	v_dual_mov_b32 v10, v2 :: v_dual_mov_b32 v11, v3
	v_mov_b32_dpp v2, v2 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v9, v9 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
	s_waitcnt expcnt(2)
	v_dual_mov_b32 v13, v4 :: v_dual_mov_b32 v16, v5
	v_mov_b32_dpp v10, v10 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v11, v11 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_dual_mov_b32 v14, v4 :: v_dual_mov_b32 v15, v5
	v_mov_b32_dpp v3, v3 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v4, v4 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_dual_mov_b32 v8, v2 :: v_dual_mov_b32 v17, v9
	v_dual_mov_b32 v18, v10 :: v_dual_mov_b32 v19, v11
	v_mov_b32_dpp v13, v13 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v12, v12 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v14, v14 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
                                        ; kill: def $vgpr13 killed $vgpr13 killed $exec
                                        ; kill: def $vgpr12 killed $vgpr12 killed $exec
                                        ; kill: def $vgpr14 killed $vgpr14 killed $exec
	v_dual_mov_b32 v9, v3 :: v_dual_mov_b32 v10, v4
	v_fmac_f32_e32 v17, v0, v18
	s_delay_alu instid0(VALU_DEP_4) | instskip(NEXT) | instid1(VALU_DEP_4)
	v_fmac_f32_e32 v19, v0, v12
	v_fmac_f32_e32 v13, v0, v14
	v_mov_b32_dpp v15, v15 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v5, v5 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v16, v16 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_fmac_f32_e32 v17, v1, v8
	v_fmac_f32_e32 v19, v1, v9
	v_fmac_f32_e32 v13, v1, v10
                                        ; kill: def $vgpr15 killed $vgpr15 killed $exec
	s_mov_b32 s0, exec_lo
	s_wqm_b32 exec_lo, exec_lo
	lds_param_load v2, attr1.z wait_vdst:14
	s_mov_b32 exec_lo, s0
	s_waitcnt expcnt(2)
	v_mov_b32_e32 v9, v6
	v_mov_b32_e32 v10, v6
                                        ; kill: def $vgpr16 killed $vgpr16 killed $exec
	s_mov_b32 s0, exec_lo
	s_wqm_b32 exec_lo, exec_lo
	lds_param_load v3, attr1.w wait_vdst:11
	s_mov_b32 exec_lo, s0
	s_waitcnt expcnt(2)
	v_dual_mov_b32 v8, v5 :: v_dual_mov_b32 v11, v7
	v_mov_b32_dpp v9, v9 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v6, v6 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v10, v10 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_dual_mov_b32 v12, v7 :: v_dual_fmac_f32 v15, v0, v16
	s_delay_alu instid0(VALU_DEP_3) | instskip(SKIP_3) | instid1(VALU_DEP_3)
	v_dual_mov_b32 v14, v9 :: v_dual_mov_b32 v9, v6
	v_mov_b32_dpp v11, v11 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
                                        ; kill: def $vgpr10 killed $vgpr10 killed $exec
	s_waitcnt expcnt(0)
	v_dual_mov_b32 v18, v2 :: v_dual_mov_b32 v21, v3
	v_fmac_f32_e32 v14, v0, v10
	v_mov_b32_e32 v20, v3
	v_dual_mov_b32 v16, v11 :: v_dual_mov_b32 v11, v2
	v_mov_b32_dpp v7, v7 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v2, v2 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v3, v3 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v12, v12 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v11, v11 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
                                        ; kill: def $vgpr12 killed $vgpr12 killed $exec
	v_mov_b32_dpp v18, v18 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v20, v20 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v21, v21 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_e32 v10, v7
	v_dual_mov_b32 v22, v11 :: v_dual_mov_b32 v11, v2
                                        ; kill: def $vgpr18 killed $vgpr18 killed $exec
                                        ; kill: def $vgpr20 killed $vgpr20 killed $exec
                                        ; kill: def $vgpr21 killed $vgpr21 killed $exec
	v_fmac_f32_e32 v16, v0, v12
	v_mov_b32_e32 v12, v3
	s_delay_alu instid0(VALU_DEP_3)
	v_fmac_f32_e32 v22, v0, v18
	s_and_b32 exec_lo, exec_lo, s1
	v_dual_fmac_f32 v20, v0, v21 :: v_dual_fmac_f32 v15, v1, v8
	v_fmac_f32_e32 v14, v1, v9
	v_fmac_f32_e32 v16, v1, v10
	v_fmac_f32_e32 v22, v1, v11
	s_delay_alu instid0(VALU_DEP_4)
	v_fmac_f32_e32 v20, v1, v12
	exp mrt0 v17, v19, v13, v15
	exp mrt1 v14, v16, v22, v20 done
	s_endpgm
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 520
; NumSgprs: 3
; NumVgprs: 23
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 2
; NumSGPRsForWavesPerEU: 3
; NumVGPRsForWavesPerEU: 23
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
      .ps:
        .entry_point:    main
        .scratch_memory_size: 0
        .sgpr_count:     0x3
        .vgpr_count:     0x17
    .registers:
      '0x2c0a (SPI_SHADER_PGM_RSRC1_PS)': 0x22f0002
      '0x2c0b (SPI_SHADER_PGM_RSRC2_PS)': 0
      '0xa1b3 (SPI_PS_INPUT_ENA)': 0x2
      '0xa1b4 (SPI_PS_INPUT_ADDR)': 0x2
      '0xa1b6 (SPI_PS_IN_CONTROL)': 0x8000
...
	.end_amdgpu_pal_metadata
