	.text
	.amdgcn_target "amdgcn-unknown-amdpal--gfx1100"
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:
	s_mov_b64 s[14:15], exec
	s_mov_b64 s[16:17], exec
	s_wqm_b64 exec, exec
	s_mov_b32 m0, s12
	lds_param_load v2, attr0.x wait_vdst:15
	lds_param_load v3, attr0.y wait_vdst:15
	s_mov_b64 exec, s[16:17]
	s_delay_alu instid0(SALU_CYCLE_1)
	s_wqm_b64 exec, exec
	s_waitcnt expcnt(1)
	v_mov_b32_e32 v4, v2
	v_mov_b32_e32 v7, v2
	s_waitcnt expcnt(0)
	v_mov_b32_e32 v5, v3
	v_mov_b32_e32 v8, v3
	v_mov_b32_dpp v2, v2 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v4, v4 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v7, v7 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v5, v5 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v3, v3 quad_perm:[2,2,2,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_dpp v8, v8 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_mov_b32_e32 v6, v4
	v_mov_b32_e32 v9, v7
	v_mov_b32_e32 v7, v5
                                        ; kill: def $vgpr8 killed $vgpr8 killed $exec
	v_mov_b32_e32 v4, v2
	v_mov_b32_e32 v5, v3
	s_and_b64 exec, exec, s[14:15]
	v_fmac_f32_e32 v6, v0, v9
	v_fmac_f32_e32 v7, v0, v8
	s_waitcnt_depctr 0xfff
	v_fmac_f32_e32 v6, v1, v4
	v_fmac_f32_e32 v7, v1, v5
	image_sample_lz v[4:7], v[6:7], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
	s_waitcnt vmcnt(0)
	exp mrt0 v4, v5, v6, v7 done
	s_endpgm
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 176
; NumSgprs: 18
; NumVgprs: 10
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 2
; VGPRBlocks: 2
; NumSGPRsForWavesPerEU: 18
; NumVGPRsForWavesPerEU: 10
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
        .sgpr_count:     0x12
        .vgpr_count:     0xa
    .registers:
      '0x2c0a (SPI_SHADER_PGM_RSRC1_PS)': 0x22f0082
      '0x2c0b (SPI_SHADER_PGM_RSRC2_PS)': 0
      '0xa1b3 (SPI_PS_INPUT_ENA)': 0x2
      '0xa1b4 (SPI_PS_INPUT_ADDR)': 0x2
...
	.end_amdgpu_pal_metadata
