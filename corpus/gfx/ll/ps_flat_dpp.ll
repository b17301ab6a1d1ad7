; Flat shading without VINTERP: lds_param_load, then P0 (quad lane 0) to every lane with DPP
; quad_perm:[0,0,0,0]; attributes 0.x and 1.z.
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_center) {
  %a = call float @llvm.amdgcn.lds.param.load(i32 0, i32 0, i32 %prim_mask)
  %b = call float @llvm.amdgcn.lds.param.load(i32 2, i32 1, i32 %prim_mask)
  %ai = bitcast float %a to i32
  %bi = bitcast float %b to i32
  %a0 = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %ai, i32 0, i32 15, i32 15, i1 true)
  %b0 = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %bi, i32 0, i32 15, i32 15, i1 true)
  %af = bitcast i32 %a0 to float
  %bf = bitcast i32 %b0 to float
  call void @llvm.amdgcn.exp.f32(i32 0, i32 3, float %af, float %bf, float undef, float undef, i1 true, i1 true)
  ret void
}
declare float @llvm.amdgcn.lds.param.load(i32, i32, i32)
declare i32 @llvm.amdgcn.mov.dpp.i32(i32, i32, i32, i32, i1)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
