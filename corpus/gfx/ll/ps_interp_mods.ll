; Source modifiers and clamp folded into VINTERP: persp-center I, J; attr0.x (f32) and attr1.x
; (f16 pair). MRT0 = (clamp(interp(-attr0.x)), clamp(interp_f16(attr1.x lo)), interp with -I, 1).
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %ij) {
  %i = extractelement <2 x float> %ij, i32 0
  %j = extractelement <2 x float> %ij, i32 1
  %p = call float @llvm.amdgcn.lds.param.load(i32 0, i32 0, i32 %prim_mask)
  %q = call float @llvm.amdgcn.lds.param.load(i32 0, i32 1, i32 %prim_mask)
  %np = fneg float %p
  %x10 = call float @llvm.amdgcn.interp.inreg.p10(float %np, float %i, float %np)
  %x = call float @llvm.amdgcn.interp.inreg.p2(float %np, float %j, float %x10)
  %xc = call float @llvm.amdgcn.fmed3.f32(float %x, float 0.0, float 1.0)
  %y10 = call float @llvm.amdgcn.interp.inreg.p10.f16(float %q, float %i, float %q, i1 false)
  %y = call half @llvm.amdgcn.interp.inreg.p2.f16(float %q, float %j, float %y10, i1 false)
  %yc = call half @llvm.amdgcn.fmed3.f16(half %y, half 0.0, half 1.0)
  %yf = fpext half %yc to float
  %ni = fneg float %i
  %z10 = call float @llvm.amdgcn.interp.inreg.p10(float %p, float %ni, float %p)
  %z = call float @llvm.amdgcn.interp.inreg.p2(float %p, float %j, float %z10)
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %xc, float %yf, float %z, float 1.0, i1 true, i1 true)
  ret void
}
declare float @llvm.amdgcn.lds.param.load(i32, i32, i32)
declare float @llvm.amdgcn.interp.inreg.p10(float, float, float)
declare float @llvm.amdgcn.interp.inreg.p2(float, float, float)
declare float @llvm.amdgcn.interp.inreg.p10.f16(float, float, float, i1)
declare half @llvm.amdgcn.interp.inreg.p2.f16(float, float, float, i1)
declare float @llvm.amdgcn.fmed3.f32(float, float, float)
declare half @llvm.amdgcn.fmed3.f16(half, half, half)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
