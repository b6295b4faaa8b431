# bash completion for vita(1)
_vita()
{
	local cur prev words cword
	_init_completion -n = || return

	local commands="render watch batch check fonts layouts locales new schema"
	local opts="--output --layout --lang --tags --set --dump= --strict --reproducible --pdf=
		--deps --force --untrusted --trusted --keys --exec --format --changed --book --dir --jobs
		--help --version"

	if [[ $cword -eq 1 ]]; then
		COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
		return
	fi
	case $prev in
	-l | --layout)
		COMPREPLY=($(compgen -W "$(vita layouts 2>/dev/null | awk '/^[^ ]/ {print $1}' | sort -u)" -- "$cur"))
		[[ $cur == */* || $cur == .* ]] && _filedir yaml
		return ;;
	--lang)
		COMPREPLY=($(compgen -W "$(vita locales 2>/dev/null | awk '{print $1}')" -- "$cur"))
		return ;;
	--format)
		COMPREPLY=($(compgen -W "pdf html html-fragment json" -- "$cur"))
		return ;;
	-o | --output | --deps | --book)
		_filedir
		return ;;
	-d | --dir)
		_filedir -d
		return ;;
	-j | --jobs | --tags | --set | --exec)
		return ;;
	esac
	case $cur in
	--dump=*)
		COMPREPLY=($(compgen -W "model layout" -- "${cur#--dump=}"))
		return ;;
	-*)
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
		return ;;
	esac
	case ${words[1]} in
	render | watch | batch | check | fonts)
		_filedir '@(yaml|yml|json)' ;;
	esac
}
complete -F _vita vita
