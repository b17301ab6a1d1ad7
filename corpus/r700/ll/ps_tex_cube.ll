; Cube-map sampling as a driver lowers it: llvm.r600.cube on a direction, then face coordinates
; x = sc / |2 ma| + 1.5, y = tc / |2 ma| + 1.5 and the face id, sampled from resource 2 (a cube map in the
; runner configuration). The direction's major axis is +-2 (chosen by in0.w) and the other components are
; in0 / 8, so every sample lies inside its face.
define amdgpu_ps void @main(<4 x float> inreg %in0) {
entry:
  %v = fmul <4 x float> %in0, <float 0.125, float 0.125, float 0.125, float 0.125>
  %w = extractelement <4 x float> %in0, i32 3
  %vx = extractelement <4 x float> %v, i32 0
  %vy = extractelement <4 x float> %v, i32 1
  %vz = extractelement <4 x float> %v, i32 2
  %a = fcmp ogt float %w, 2.0
  %b = fcmp ogt float %w, 0.0
  %c = fcmp ogt float %w, -2.0
  ; w > 2: +Z; 0 < w <= 2: -X; -2 < w <= 0: +Y; else -Z
  %dz0 = select i1 %c, float %vz, float -2.0
  %dy0 = select i1 %c, float 2.0, float %vy
  %dx1 = select i1 %b, float -2.0, float %vx
  %dy1 = select i1 %b, float %vy, float %dy0
  %dz1 = select i1 %b, float %vz, float %dz0
  %dx = select i1 %a, float %vx, float %dx1
  %dy = select i1 %a, float %vy, float %dy1
  %dz = select i1 %a, float 2.0, float %dz1
  %d0 = insertelement <4 x float> undef, float %dx, i32 0
  %d1 = insertelement <4 x float> %d0, float %dy, i32 1
  %d2 = insertelement <4 x float> %d1, float %dz, i32 2
  %d3 = insertelement <4 x float> %d2, float 0.0, i32 3
  %cube = call <4 x float> @llvm.r600.cube(<4 x float> %d3)
  %tc = extractelement <4 x float> %cube, i32 0
  %sc = extractelement <4 x float> %cube, i32 1
  %ma = extractelement <4 x float> %cube, i32 2
  %face = extractelement <4 x float> %cube, i32 3
  %ama = call float @llvm.fabs.f32(float %ma)
  %r = fdiv float 1.0, %ama
  %s1 = fmul float %sc, %r
  %x = fadd float %s1, 1.5
  %t1 = fmul float %tc, %r
  %y = fadd float %t1, 1.5
  %q0 = insertelement <4 x float> undef, float %x, i32 0
  %q1 = insertelement <4 x float> %q0, float %y, i32 1
  %q2 = insertelement <4 x float> %q1, float %face, i32 2
  %q3 = insertelement <4 x float> %q2, float 0.0, i32 3
  %t = call <4 x float> @llvm.r600.tex(<4 x float> %q3, i32 0, i32 0, i32 0, i32 2, i32 2, i32 1, i32 1, i32 1, i32 1)
  call void @llvm.r600.store.swizzle(<4 x float> %t, i32 0, i32 0)
  ret void
}
declare <4 x float> @llvm.r600.cube(<4 x float>)
declare float @llvm.fabs.f32(float)
declare <4 x float> @llvm.r600.tex(<4 x float>, i32, i32, i32, i32, i32, i32, i32, i32, i32)
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
