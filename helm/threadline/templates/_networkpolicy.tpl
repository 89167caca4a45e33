{{/* Egress rules shared by the operator and api-server policies: DNS anywhere, then TCP on
networkPolicy.egress.ports to networkPolicy.egress.cidrs. */}}
{{- define "threadline.networkPolicy.egress" -}}
- ports:
    - protocol: UDP
      port: 53
    - protocol: TCP
      port: 53
{{- $np := .Values.networkPolicy.egress }}
- to:
    {{- range $np.cidrs }}
    - ipBlock:
        cidr: {{ . }}
    {{- end }}
  ports:
    {{- range $np.ports }}
    - protocol: TCP
      port: {{ . }}
    {{- end }}
{{- end }}
