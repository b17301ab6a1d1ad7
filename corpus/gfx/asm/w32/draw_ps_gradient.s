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
	s_mov_b32 exec_lo, s2
	s_delay_alu instid0(SALU_CYCLE_1)
	s_wqm_b32 exec_lo, exec_lo
	s_waitcnt expcnt(2)
	v_dual_mov_b32 v8, v2 :: v_dual_mov_b32 v11, v3
	v_dual_mov_b32 v9, v2 :: v_dual_mov_b32 v10, v3
	s_waitcnt expcnt(0)
	v_dual_mov_b32 v12, v4 :: v_dual_mov_b32 v15, v5
	s_delay_alu instid0(VALU_DEP_3)
	v_mov_b32_dpp v8, v8 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_dual_mov_b32 v13, v4 :: v_dual_mov_b32 v14, v5
	v_mov_b32_dpp v2, v2 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v3, v3 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v4, v4 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v5, v5 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_e32 v16, v8
	v_mov_b32_dpp v9, v9 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v10, v10 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v12, v12 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v11, v11 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v13, v13 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v14, v14 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v15, v15 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
                                        ; kill: def $vgpr9 killed $vgpr9 killed $exec
                                        ; kill: def $vgpr10 killed $vgpr10 killed $exec
                                        ; kill: def $vgpr12 killed $vgpr12 killed $exec
	v_dual_mov_b32 v6, v2 :: v_dual_mov_b32 v7, v3
                                        ; kill: def $vgpr11 killed $vgpr11 killed $exec
                                        ; kill: def $vgpr13 killed $vgpr13 killed $exec
                                        ; kill: def $vgpr14 killed $vgpr14 killed $exec
                                        ; kill: def $vgpr15 killed $vgpr15 killed $exec
	v_fmac_f32_e32 v16, v0, v9
	v_fmac_f32_e32 v10, v0, v11
	v_mov_b32_e32 v8, v4
	v_dual_fmac_f32 v12, v0, v13 :: v_dual_mov_b32 v9, v5
	s_and_b32 exec_lo, exec_lo, s1
	v_fmac_f32_e32 v14, v0, v15
	v_fmac_f32_e32 v16, v1, v6
	v_fmac_f32_e32 v10, v1, v7
	v_fmac_f32_e32 v12, v1, v8
	s_delay_alu instid0(VALU_DEP_4)
	v_fmac_f32_e32 v14, v1, v9
	exp mrt0 v16, v10, v12, v14 done
	s_endpgm
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 256
; NumSgprs: 3
; NumVgprs: 17
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 2
; NumSGPRsForWavesPerEU: 3
; NumVGPRsForWavesPerEU: 17
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
        .vgpr_count:     0x11
    .registers:
      '0x2c0a (SPI_SHADER_PGM_RSRC1_PS)': 0x22f0002
      '0x2c0b (SPI_SHADER_PGM_RSRC2_PS)': 0
      '0xa1b3 (SPI_PS_INPUT_ENA)': 0x2
      '0xa1b4 (SPI_PS_INPUT_ADDR)': 0x2
      '0xa1b6 (SPI_PS_IN_CONTROL)': 0x8000
...
	.end_amdgpu_pal_metadata
