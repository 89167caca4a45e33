{{/* The history store (values "history", README "History store (PostgreSQL)"): the same
PostgreSQL database for the operator and the api-server. */}}

{{/* Where the CA certificate of history.tls.ca is mounted. */}}
{{- define "threadline.history.caDir" -}}
/etc/threadline/history-ca
{{- end }}

{{/* Whether a CA certificate is mounted: history.tls.ca names a Secret or a ConfigMap. */}}
{{- define "threadline.history.hasCa" -}}
{{- with .Values.history.tls.ca }}{{ if or .secretName .configMapName }}true{{ end }}{{ end }}
{{- end }}

{{/* Refuses to render without a database, or with a TLS set-up the driver cannot use. */}}
{{- define "threadline.history.validate" -}}
{{- $h := .Values.history }}
{{- if or (not $h.host) (not $h.database) (not $h.existingSecret) }}
{{- fail "no history database: the operator and the api-server keep conversation content in PostgreSQL. Set history.host, history.database and history.existingSecret (a Secret with the user and password under history.userKey and history.passwordKey); see helm/README.md, \"History store (PostgreSQL)\"" }}
{{- end }}
{{- if and $h.tls.ca.secretName $h.tls.ca.configMapName }}
{{- fail "history.tls.ca: set secretName or configMapName, not both" }}
{{- end }}
{{- if and (has $h.tls.mode (list "verify-ca" "verify-full")) (not (include "threadline.history.hasCa" .)) }}
{{- fail (printf "history.tls.mode %s checks the server's certificate: set history.tls.ca.secretName (or configMapName) to the CA that signed it, or choose history.tls.mode require" $h.tls.mode) }}
{{- end }}
{{- end }}

{{/* THREADLINE_HISTORY_URL: jdbc:postgresql://host:port/database?sslmode=…[&sslrootcert=…]. */}}
{{- define "threadline.history.url" -}}
{{- $h := .Values.history }}
{{- $url := printf "jdbc:postgresql://%s:%d/%s?sslmode=%s" $h.host (int $h.port) $h.database $h.tls.mode }}
{{- if include "threadline.history.hasCa" . }}
{{- $url = printf "%s&sslrootcert=%s/%s" $url (include "threadline.history.caDir" .) $h.tls.ca.key }}
{{- end }}
{{- $url }}
{{- end }}

{{/* The env of both Deployments: URL, pool size, and the credentials from history.existingSecret. */}}
{{- define "threadline.history.env" -}}
{{- include "threadline.history.validate" . }}
{{- $h := .Values.history }}
# The history store (conversation content): the same PostgreSQL database for both.
- name: THREADLINE_HISTORY_URL
  value: {{ include "threadline.history.url" . | quote }}
- name: THREADLINE_HISTORY_USER
  valueFrom:
    secretKeyRef:
      name: {{ $h.existingSecret }}
      key: {{ $h.userKey }}
- name: THREADLINE_HISTORY_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $h.existingSecret }}
      key: {{ $h.passwordKey }}
- name: THREADLINE_HISTORY_POOL_SIZE
  value: {{ $h.poolSize | int | quote }}
{{- end }}

{{/* The CA certificate's volume mount (read-only), when history.tls.ca names one. */}}
{{- define "threadline.history.volumeMount" -}}
{{- if include "threadline.history.hasCa" . }}
- name: history-ca
  mountPath: {{ include "threadline.history.caDir" . }}
  readOnly: true
{{- end }}
{{- end }}

{{/* The CA certificate's volume: only its key, from the Secret or the ConfigMap. */}}
{{- define "threadline.history.volume" -}}
{{- $ca := .Values.history.tls.ca }}
{{- if $ca.secretName }}
- name: history-ca
  secret:
    secretName: {{ $ca.secretName }}
    items:
      - key: {{ $ca.key }}
        path: {{ $ca.key }}
{{- else if $ca.configMapName }}
- name: history-ca
  configMap:
    name: {{ $ca.configMapName }}
    items:
      - key: {{ $ca.key }}
        path: {{ $ca.key }}
{{- end }}
{{- end }}

{{/* The egress rule to the database, for the operator's and the api-server's NetworkPolicies. */}}
{{- define "threadline.history.egress" -}}
{{- $np := .Values.history.networkPolicy }}
# The history store (PostgreSQL).
- ports:
    - protocol: TCP
      port: {{ $np.port }}
  {{- if or $np.namespaceSelector $np.podSelector $np.cidrs }}
  to:
    {{- if or $np.namespaceSelector $np.podSelector }}
    - {{- with $np.namespaceSelector }}
      namespaceSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $np.podSelector }}
      podSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- end }}
    {{- range $np.cidrs }}
    - ipBlock:
        cidr: {{ . }}
    {{- end }}
  {{- end }}
{{- end }}
