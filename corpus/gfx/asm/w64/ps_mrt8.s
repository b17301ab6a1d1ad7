	.text
	.amdgcn_target "amdgcn-unknown-amdpal--gfx1100"
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:
	v_mov_b32_e32 v0, 0
	v_mov_b32_e32 v1, 1.0
	v_add_f32_e32 v4, 0, v2
	v_add_f32_e32 v5, 1.0, v2
	v_mov_b32_e32 v6, 2.0
	v_add_f32_e32 v7, 2.0, v2
	v_mov_b32_e32 v8, 0x40400000
	v_add_f32_e32 v9, 0x40400000, v2
	v_mov_b32_e32 v10, 4.0
	v_add_f32_e32 v11, 4.0, v2
	v_mov_b32_e32 v12, 0x40a00000
	v_add_f32_e32 v13, 0x40a00000, v2
	v_mov_b32_e32 v14, 0x40c00000
	v_add_f32_e32 v15, 0x40c00000, v2
	v_mov_b32_e32 v16, 0x40e00000
	v_add_f32_e32 v2, 0x40e00000, v2
	exp mrt0 v4, v3, v0, v1
	exp mrt1 v5, v3, v1, v1
	exp mrt2 v7, v3, v6, v1
	exp mrt3 v9, v3, v8, v1
	exp mrt4 v11, v3, v10, v1
	exp mrt5 v13, v3, v12, v1
	exp mrt6 v15, v3, v14, v1
	exp mrt7 v2, v3, v16, v1 done
	s_endpgm
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 164
; NumSgprs: 1
; NumVgprs: 17
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 4
; NumSGPRsForWavesPerEU: 1
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
        .sgpr_count:     0x1
        .vgpr_count:     0x11
    .registers:
      '0x2c0a (SPI_SHADER_PGM_RSRC1_PS)': 0x22f0004
      '0x2c0b (SPI_SHADER_PGM_RSRC2_PS)': 0
      '0xa1b3 (SPI_PS_INPUT_ENA)': 0x301
      '0xa1b4 (SPI_PS_INPUT_ADDR)': 0x301
...
	.end_amdgpu_pal_metadata
